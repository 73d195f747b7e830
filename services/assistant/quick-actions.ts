/** The requests the apps offer as buttons, worded with the person's preferences. */
import type { AssistantPreferences, QuickAction } from '../../contracts/assistant';

export function quickActions(preferences: AssistantPreferences): QuickAction[] {
  return [
    { id: 'plan_focus', label: 'Plan focus time', text: `schedule ${preferences.focusMinutes} minutes of focus tomorrow ${preferences.focusPeriod}` },
    { id: 'free_this_week', label: 'When am I free?', text: 'when am I free this week' },
    { id: 'summarize_day', label: 'Summarize my day', text: 'summarize my day' },
    { id: 'add_task', label: 'Add a task', text: 'add a task' },
  ];
}
