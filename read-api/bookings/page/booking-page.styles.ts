/** The booking pages' stylesheet, served as /book/assets/booking.css. */
export const BOOKING_STYLES = `
:root { font-family: system-ui, sans-serif; color: #1d1d1f; background: #fafafa; line-height: 1.5; }
main { max-width: 40rem; margin: 2rem auto; padding: 0 1rem; }
h1 { margin-bottom: 0.25rem; }
.meta { color: #555; margin-top: 0; }
.days-nav { margin: 0.5rem 0 1rem; }
.day ul { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 0.5rem; }
button, input, textarea { font: inherit; }
button { padding: 0.4rem 0.8rem; border: 1px solid #0a58ca; border-radius: 0.3rem; background: #fff; color: #0a58ca; cursor: pointer; }
button[type=submit], #confirm-cancel { background: #0a58ca; color: #fff; }
button:disabled { opacity: 0.6; cursor: wait; }
button:focus-visible, a:focus-visible, input:focus-visible, textarea:focus-visible { outline: 3px solid #ffbf47; outline-offset: 2px; }
label { display: block; font-weight: 600; }
input, textarea { width: 100%; max-width: 28rem; padding: 0.4rem; border: 1px solid #888; border-radius: 0.3rem; box-sizing: border-box; }
#status { min-height: 1.5em; color: #555; }
#done { border-left: 4px solid #198754; padding-left: 1rem; }
`;
