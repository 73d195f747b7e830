/** Saving a webhook URL does not wait on a resolver that never answers (a CI flake: schemathesis timed out on it). */
import { whyRefused } from '../../services/dispatcher/private-addresses';

jest.mock('node:dns', () => ({ ...jest.requireActual('node:dns'), lookup: () => undefined })); // never calls back

it('accepts a name whose lookup never answers, leaving the check to send time', async () => {
  await expect(whyRefused('https://slow-resolver.example/hook')).resolves.toBeNull();
  await expect(whyRefused('http://127.0.0.1/hook')).resolves.toMatch(/private/); // literals need no lookup
});
