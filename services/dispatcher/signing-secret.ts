import { randomInt } from 'node:crypto';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A new signing secret as receivers see it: `whsec_` + 32 letters and digits (~190 bits), valid base64 of 24 bytes
 * in both alphabets, so the Standard Webhooks libraries take it as it is shown, and it stays safe in URLs and shells.
 */
export const newSigningSecret = () => `whsec_${Array.from({ length: 32 }, () => ALPHANUMERIC[randomInt(ALPHANUMERIC.length)]).join('')}`;
