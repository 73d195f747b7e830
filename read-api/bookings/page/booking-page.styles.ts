/**
 * The booking pages' stylesheet, served as /book/assets/booking.css. Every control is at least 44 px tall (the
 * usual minimum tap target); the month and the day's times sit side by side on a wide screen and one above the
 * other on a phone, where the day's times scroll in their own box so the page stays short.
 */
export const BOOKING_STYLES = `
:root { font-family: system-ui, sans-serif; color: #1d1d1f; background: #fafafa; line-height: 1.5; }
[hidden] { display: none !important; }
main { max-width: 58rem; margin: 1.5rem auto; padding: 0 1rem; }
h1 { margin: 0 0 0.25rem; line-height: 1.2; }
h2 { font-size: 1.25rem; margin: 1.25rem 0 0.5rem; }
h3 { font-size: 1rem; margin: 0; }
.meta { color: #555; margin-top: 0; }
button, input, textarea, select { font: inherit; }
button, select, input, .actions a { min-height: 2.75rem; box-sizing: border-box; }
button { padding: 0.5rem 1rem; border: 1px solid #0a58ca; border-radius: 0.4rem; background: #fff; color: #0a58ca; cursor: pointer; }
button.primary { background: #0a58ca; color: #fff; }
button:disabled { cursor: default; }
button:focus-visible, a:focus-visible, input:focus-visible, textarea:focus-visible, select:focus-visible { outline: 3px solid #ffbf47; outline-offset: 2px; }
label { display: block; font-weight: 600; }
input, textarea, select { width: 100%; max-width: 28rem; padding: 0.5rem; border: 1px solid #888; border-radius: 0.4rem; background: #fff; }
.actions { display: flex; flex-wrap: wrap; gap: 0.75rem; }
.actions a { display: inline-flex; align-items: center; padding: 0 1rem; border: 1px solid #0a58ca; border-radius: 0.4rem; color: #0a58ca; text-decoration: none; }
.zone label { display: inline; margin-right: 0.5rem; }
.zone select { max-width: 24rem; }
.picker { display: grid; gap: 1.5rem; grid-template-columns: minmax(0, 1fr); }
@media (min-width: 48rem) { .picker { grid-template-columns: minmax(18rem, 24rem) minmax(0, 1fr); } }
.month-nav { display: flex; align-items: center; justify-content: space-between; margin-bottom: 0.5rem; }
.month-nav button { width: 2.75rem; padding: 0; font-size: 1.25rem; }
.month-nav button:disabled { border-color: #ccc; color: #aaa; }
.month-grid { width: 100%; border-collapse: separate; border-spacing: 0.2rem; table-layout: fixed; }
.month-grid th { font-size: 0.8rem; font-weight: 600; color: #555; padding-bottom: 0.25rem; }
.month-grid td { padding: 0; text-align: center; }
button.day { width: 100%; padding: 0; border: 0; background: #e7f0fd; font-weight: 600; }
button.day[aria-pressed=true] { background: #0a58ca; color: #fff; }
button.day:disabled { background: transparent; color: #999; font-weight: 400; }
button.day[aria-current=date] { text-decoration: underline; text-underline-offset: 0.2em; }
#slots { list-style: none; margin: 0.5rem 0 0; padding: 0.25rem; display: grid; gap: 0.5rem;
  grid-template-columns: repeat(auto-fill, minmax(6.5rem, 1fr)); max-height: 24.5rem; overflow-y: auto; }
#slots button { width: 100%; }
#slots .seats { display: block; font-size: 0.8rem; line-height: 1.2; color: #555; }
.lengths { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; margin-bottom: 0.75rem; }
.lengths h3 { margin-right: 0.25rem; }
button.length[aria-pressed=true] { background: #0a58ca; color: #fff; }
.notice { border-left: 4px solid #b58105; padding-left: 0.75rem; }
button.slot:disabled { border-color: #ccc; color: #777; }
/* Half a row shows below the box's edge: there are more times to scroll to. */
@media (max-width: 30rem) { #slots { max-height: 18.5rem; } main { margin-top: 1rem; } }
#status { min-height: 1.5em; color: #555; }
[tabindex="-1"]:focus { outline: none; }
#done { border-left: 4px solid #198754; padding-left: 1rem; }
#confirm-move { border-left: 4px solid #0a58ca; padding-left: 1rem; }
`;
