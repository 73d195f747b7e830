/**
 * The assistant (session only): conversations with messages, suggestions to confirm or cancel, feedback,
 * preferences, quick actions and status.
 */
import { z } from 'zod';
import { DateTime, ErrorEnvelope, IdParams, NonBlankText, Uuid } from './common';
import { Event } from './events';
import { op } from './operation';
import { NextPageToken, PageQuery } from './paging';
import { notFoundAnswer } from './responses';
import { Task } from './tasks';

export const ASSISTANT_LIMITS = { textLength: 2000, suggestionsPerReply: 5 } as const;
export const DayPeriod = z.enum(['morning', 'afternoon', 'evening']);
export const SuggestionKind = z.enum(['create_event', 'move_event', 'create_task']);
export const SuggestionStatus = z.enum(['pending', 'confirmed', 'cancelled']);
export const QUICK_ACTION_IDS = ['plan_focus', 'free_this_week', 'summarize_day', 'add_task'] as const;
export const QuickActionId = z.enum(QUICK_ACTION_IDS);

const USER = '5d2c8e3a-1b4f-4c6d-8e9a-0f1b2c3d4e5f';
const CONVERSATION = '6a1f2b3c-4d5e-4f60-8a1b-2c3d4e5f6a7b';
const MESSAGE = '7b2a3c4d-5e6f-4a70-9b1c-2d3e4f5a6b7c';
const REPLY = '8c3b4d5e-6f70-4b81-8c2d-3e4f5a6b7c8d';
const SUGGESTION = '9d4c5e6f-7081-4c92-9d3e-4f5a6b7c8d9e';
const EVENT = 'ae5d6f70-8192-4da3-8e4f-5a6b7c8d9eaf';
const CALENDAR = 'bf6e7081-92a3-4eb4-9f50-6b7c8d9eafb0';
const SPACE = 'c07f8192-a3b4-4fc5-8061-7c8d9eafb0c1';

export const AssistantPreferences = z
  .object({
    focusPeriod: DayPeriod.describe('Part of the day focus time goes in when a request names none'),
    meetingMinutes: z.number().int().min(5).max(480).describe('Length of an event when a request names none'),
    focusMinutes: z.number().int().min(5).max(480).describe('Length of focus time when a request names none'),
    retentionDays: z.number().int().min(1).max(3650).describe('Messages older than this many days are deleted'),
    improve: z.boolean().describe('Whether rated answers may be used to improve the assistant'),
  })
  .meta({
    id: 'AssistantPreferences',
    examples: [{ focusPeriod: 'morning', meetingMinutes: 30, focusMinutes: 60, retentionDays: 90, improve: false }],
  });
export type AssistantPreferences = z.infer<typeof AssistantPreferences>;

export const DEFAULT_ASSISTANT_PREFERENCES: AssistantPreferences = {
  focusPeriod: 'morning', meetingMinutes: 30, focusMinutes: 60, retentionDays: 90, improve: false,
};

export const UpdateAssistantPreferencesBody = AssistantPreferences.partial().meta({
  id: 'UpdateAssistantPreferencesBody',
  description: 'Fields left out keep their value.',
  examples: [{ focusPeriod: 'afternoon', focusMinutes: 90, retentionDays: 30 }],
});
export type UpdateAssistantPreferencesBody = z.infer<typeof UpdateAssistantPreferencesBody>;

export const AssistantPreferencesResponse = z
  .object({ preferences: AssistantPreferences })
  .meta({
    id: 'AssistantPreferencesResponse',
    examples: [{ preferences: { focusPeriod: 'afternoon', meetingMinutes: 30, focusMinutes: 90, retentionDays: 30, improve: false } }],
  });

const quickActionExample = { id: 'plan_focus', label: 'Plan focus time', text: 'schedule 60 minutes of focus tomorrow morning' };

export const QuickAction = z
  .object({
    id: QuickActionId,
    label: z.string(),
    text: z.string().describe('What sending this action asks; send the id as `action`, or this text as `text`'),
  })
  .meta({ id: 'AssistantQuickAction', examples: [quickActionExample] });
export type QuickAction = z.infer<typeof QuickAction>;

export const QuickActionsResponse = z
  .object({ quickActions: z.array(QuickAction) })
  .meta({ id: 'AssistantQuickActions', examples: [{ quickActions: [quickActionExample] }] });

const Span = z.object({ startsAt: DateTime, endsAt: DateTime });

export const SuggestionProposal = z
  .discriminatedUnion('kind', [
    z.object({
      kind: z.literal('create_event'),
      title: z.string(),
      eventKind: z.enum(['meeting', 'focus']),
      startsAt: DateTime,
      endsAt: DateTime,
      timeZone: z.string(),
    }),
    z.object({
      kind: z.literal('move_event'),
      eventId: Uuid,
      title: z.string(),
      from: Span.describe('Where the event is now'),
      startsAt: DateTime,
      endsAt: DateTime,
    }),
    z.object({ kind: z.literal('create_task'), title: z.string(), dueAt: DateTime.nullable() }),
  ])
  .describe('What confirming does: POST /events, PATCH /events/{id} (times only) or POST /tasks');
export type SuggestionProposal = z.infer<typeof SuggestionProposal>;

const suggestionExample = {
  id: SUGGESTION, conversationId: CONVERSATION, messageId: REPLY, status: 'pending',
  summary: 'Focus on Tue 24 Nov, 09:00-09:45', createdAt: '2026-11-23T18:02:11.000Z', decidedAt: null, result: null,
  proposal: {
    kind: 'create_event', title: 'Focus', eventKind: 'focus', startsAt: '2026-11-24T08:00:00.000Z',
    endsAt: '2026-11-24T08:45:00.000Z', timeZone: 'Europe/Berlin',
  },
};

export const Suggestion = z
  .object({
    id: Uuid,
    conversationId: Uuid,
    messageId: Uuid.describe('The assistant reply that made it'),
    status: SuggestionStatus,
    summary: z.string(),
    proposal: SuggestionProposal,
    result: z
      .object({ type: z.enum(['event', 'task']), id: Uuid })
      .nullable()
      .describe('What confirming made or changed; null until confirmed'),
    createdAt: DateTime,
    decidedAt: DateTime.nullable(),
  })
  .meta({ id: 'AssistantSuggestion', examples: [suggestionExample] });
export type Suggestion = z.infer<typeof Suggestion>;

const Feedback = z.object({
  rating: z.enum(['up', 'down']),
  reason: z.string().nullable(),
  comment: z.string().nullable(),
  at: DateTime,
});

const userMessageExample = {
  id: MESSAGE, conversationId: CONVERSATION, role: 'user', text: 'schedule 45 minutes of focus tomorrow morning',
  action: null, surface: 'mobile', source: null, suggestions: [], quickActions: [], feedback: null,
  createdAt: '2026-11-23T18:02:11.000Z',
};
const replyExample = {
  id: REPLY, conversationId: CONVERSATION, role: 'assistant',
  text: 'I can block Focus on Tue 24 Nov, 09:00-09:45. Confirm to add it to your calendar.',
  action: null, surface: 'mobile', source: 'builtin', suggestions: [suggestionExample], quickActions: [], feedback: null,
  createdAt: '2026-11-23T18:02:11.000Z',
};

export const AssistantMessage = z
  .object({
    id: Uuid,
    conversationId: Uuid,
    role: z.enum(['user', 'assistant']),
    text: z.string(),
    action: QuickActionId.nullable().describe('The quick action the person sent, if any'),
    surface: z.literal('mobile').describe('Where the message was written'),
    source: z.enum(['builtin', 'model']).nullable().describe('Who answered (assistant messages): the built-in assistant or the model'),
    suggestions: z.array(Suggestion),
    quickActions: z.array(QuickAction).describe('Offered when the assistant did not understand'),
    feedback: Feedback.nullable(),
    createdAt: DateTime,
  })
  .meta({ id: 'AssistantMessage', examples: [userMessageExample, replyExample] });

const conversationExample = {
  id: CONVERSATION, title: 'schedule 45 minutes of focus tomorrow morning', surface: 'mobile',
  createdAt: '2026-11-23T18:02:11.000Z', lastMessageAt: '2026-11-23T18:02:11.000Z',
};

export const Conversation = z
  .object({
    id: Uuid,
    title: z.string().describe('The start of its first message'),
    surface: z.literal('mobile'),
    createdAt: DateTime,
    lastMessageAt: DateTime,
  })
  .meta({ id: 'AssistantConversation', examples: [conversationExample] });

export const SendMessageBody = z
  .object({
    conversationId: Uuid.optional().describe('One of the caller\'s conversations; a new one starts when left out'),
    text: NonBlankText(ASSISTANT_LIMITS.textLength).optional(),
    action: QuickActionId.optional().describe('A quick action id (GET /assistant/quick-actions), instead of text'),
  })
  .refine((b) => b.text !== undefined || b.action !== undefined, { path: ['text'], message: 'send text or an action' })
  .meta({
    anyOf: [{ required: ['text'] }, { required: ['action'] }],
    id: 'SendAssistantMessageBody',
    examples: [{ text: 'schedule 45 minutes of focus tomorrow morning' }, { conversationId: CONVERSATION, action: 'summarize_day' }],
  });
export type SendMessageBody = z.infer<typeof SendMessageBody>;

export const SendMessageResponse = z
  .object({ conversation: Conversation, message: AssistantMessage, reply: AssistantMessage })
  .meta({
    id: 'SendAssistantMessageResponse',
    examples: [{ conversation: conversationExample, message: userMessageExample, reply: replyExample }],
  });

export const ConversationPage = z
  .object({ conversations: z.array(Conversation), nextPageToken: NextPageToken })
  .meta({ id: 'AssistantConversationPage', examples: [{ conversations: [conversationExample], nextPageToken: null }] });

export const ConversationDetail = z
  .object({ conversation: Conversation, messages: z.array(AssistantMessage), nextPageToken: NextPageToken })
  .meta({
    id: 'AssistantConversationDetail',
    examples: [{ conversation: conversationExample, messages: [userMessageExample, replyExample], nextPageToken: null }],
  });

export const FeedbackBody = z
  .object({
    messageId: Uuid.describe('An assistant reply in one of the caller\'s conversations'),
    rating: z.enum(['up', 'down']),
    reason: NonBlankText(200).optional(),
    comment: NonBlankText(2000).optional(),
  })
  .meta({
    id: 'AssistantFeedbackBody',
    examples: [{ messageId: REPLY, rating: 'down', reason: 'wrong_time', comment: 'I asked for the afternoon' }],
  });
export type FeedbackBody = z.infer<typeof FeedbackBody>;

export const DecisionBody = z
  .object({ decision: z.enum(['confirm', 'cancel']) })
  .meta({ id: 'AssistantDecisionBody', examples: [{ decision: 'confirm' }] });
export type DecisionBody = z.infer<typeof DecisionBody>;

const eventExample = {
  id: EVENT, spaceId: SPACE, calendarId: CALENDAR, title: 'Focus', description: null, location: null, meetingUrl: null,
  kind: 'focus', startsAt: '2026-11-24T08:00:00.000Z', endsAt: '2026-11-24T08:45:00.000Z', timeZone: 'Europe/Berlin',
  allDay: false, busy: true, recurrenceRule: null, taskId: null, goalId: null, resources: [], attendees: [],
  reminders: [], allowOverlap: false, exceptions: [], icalUid: null, icalRecurrenceId: null, status: 'confirmed', createdBy: USER, createdAt: '2026-11-23T18:03:02.000Z',
  updatedAt: '2026-11-23T18:03:02.000Z', deletedAt: null, version: 1,
};

export const DecisionResponse = z
  .object({
    suggestion: Suggestion,
    event: Event.nullable().describe('The event made or moved (create_event, move_event confirmed)'),
    task: Task.nullable().describe('The task made (create_task confirmed)'),
  })
  .meta({
    id: 'AssistantDecisionResponse',
    examples: [{
      suggestion: { ...suggestionExample, status: 'confirmed', decidedAt: '2026-11-23T18:03:02.000Z', result: { type: 'event', id: EVENT } },
      event: eventExample,
      task: null,
    }],
  });

const statusExample = {
  answeredBy: 'model',
  model: { configured: true, connected: true, name: 'gpt-4o-mini', lastError: null },
  usage: { month: '2026-11', used: 12, limit: 50, resetsAt: '2026-12-01T00:00:00.000Z' },
};

export const AssistantStatus = z
  .object({
    answeredBy: z.enum(['model', 'builtin']).describe('Who answers now: the model, or the built-in assistant (no model, or it failed last time)'),
    model: z.object({
      configured: z.boolean().describe('ASSISTANT_MODEL_URL is set'),
      connected: z.boolean().describe('Configured, and its last answer arrived (true until the first call fails)'),
      name: z.string().nullable(),
      lastError: z.object({ at: DateTime, message: z.string() }).nullable().describe('Why the last call failed, while it is failing'),
    }),
    usage: z.object({
      month: z.string().describe('YYYY-MM (UTC)'),
      used: z.number().int().describe('Answers given this month'),
      limit: z.number().int().describe('Answers the plan includes each month'),
      resetsAt: DateTime,
    }),
  })
  .meta({
    id: 'AssistantStatus',
    examples: [statusExample, {
      answeredBy: 'builtin', model: { configured: false, connected: false, name: null, lastError: null },
      usage: { month: '2026-11', used: 3, limit: 50, resetsAt: '2026-12-01T00:00:00.000Z' },
    }],
  });

const decided = {
  description: '`suggestion_already_decided`: confirmed or cancelled before (or being confirmed); or the change conflicts (`time_conflict`, `resource_conflict`) and the suggestion stays pending',
  schema: ErrorEnvelope,
};

export const assistantOperations = [
  op({
    method: 'post', path: '/assistant/messages', heavy: true, tag: 'Assistant', summary: 'Send a message; the answer carries the reply and its suggestions',
    description: 'Recorded as the `mobile` surface. Without `conversationId` a new conversation starts. Every reply counts as one AI answer of the month.',
    body: SendMessageBody,
    responses: { 200: { description: 'The message and the reply', schema: SendMessageResponse }, 404: notFoundAnswer('conversations') },
  }),
  op({
    method: 'get', path: '/assistant/conversations', tag: 'Assistant', summary: 'Conversations, newest first',
    description: 'Paged. Conversations whose messages are all older than `retentionDays` are gone.',
    query: PageQuery,
    responses: { 200: { description: 'Conversations', schema: ConversationPage } },
  }),
  op({
    method: 'delete', path: '/assistant/conversations', tag: 'Assistant', summary: 'Clear all history',
    description: 'Deletes every conversation, message and suggestion of the caller; pending suggestions can no longer be confirmed.',
    responses: { 204: { description: 'Cleared' } },
  }),
  op({
    method: 'get', path: '/assistant/conversations/{id}', tag: 'Assistant', summary: 'A conversation with its messages, oldest first (paged)',
    params: IdParams, query: PageQuery,
    responses: { 200: { description: 'The conversation', schema: ConversationDetail }, 404: notFoundAnswer('conversations') },
  }),
  op({
    method: 'delete', path: '/assistant/conversations/{id}', tag: 'Assistant', summary: 'Delete a conversation', params: IdParams,
    responses: { 204: { description: 'Deleted' }, 404: notFoundAnswer('conversations') },
  }),
  op({
    method: 'post', path: '/assistant/feedback', tag: 'Assistant', summary: 'Rate a reply (a second rating replaces the first)', body: FeedbackBody,
    responses: { 204: { description: 'Recorded' }, 404: notFoundAnswer('messages') },
  }),
  op({
    method: 'post', path: '/assistant/actions/{id}', tag: 'Assistant', summary: 'Confirm or cancel a suggestion', params: IdParams,
    description: 'Confirm carries the suggestion out as the REST call would (same rules, same conflicts); cancel discards it. A suggestion is decided once.',
    body: DecisionBody,
    responses: { 200: { description: 'Decided', schema: DecisionResponse }, 404: notFoundAnswer('suggestions'), 409: decided },
  }),
  op({
    method: 'get', path: '/assistant/preferences', tag: 'Assistant', summary: 'Assistant preferences',
    responses: { 200: { description: 'Preferences', schema: AssistantPreferencesResponse } },
  }),
  op({
    method: 'patch', path: '/assistant/preferences', tag: 'Assistant', summary: 'Change assistant preferences', body: UpdateAssistantPreferencesBody,
    responses: { 200: { description: 'Preferences', schema: AssistantPreferencesResponse } },
  }),
  op({
    method: 'get', path: '/assistant/quick-actions', tag: 'Assistant', summary: 'Requests the apps offer as buttons',
    responses: { 200: { description: 'Quick actions', schema: QuickActionsResponse } },
  }),
  op({
    method: 'get', path: '/assistant/status', tag: 'Assistant', summary: 'Whether a model is connected, and this month\'s usage',
    responses: { 200: { description: 'Status', schema: AssistantStatus } },
  }),
];

/** Domain event data: a suggestion's life on its own stream (no personal text: that stays in the deletable history). */
export const SuggestionRecord = z.object({
  suggestionId: Uuid,
  userId: Uuid,
  at: DateTime,
  conversationId: Uuid.optional().describe('proposed only'),
  messageId: Uuid.optional().describe('proposed only'),
  kind: SuggestionKind.optional().describe('proposed only'),
  result: z.object({ type: z.enum(['event', 'task']), id: Uuid }).optional().describe('confirmed only'),
  reason: z.string().optional().describe('released only: the error code that refused the change'),
});
export type SuggestionRecord = z.infer<typeof SuggestionRecord>;

export const PreferencesRecord = z.object({ userId: Uuid, preferences: AssistantPreferences, at: DateTime });
