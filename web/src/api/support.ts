// The help drawer's support requests (POST /api/v1/support): the server mails the text to the
// tenant's support address with the user's address as Reply-To.
import { request } from './transport';

/** The longest message the server takes (internal/support.MaxRunes). */
export const SUPPORT_MESSAGE_MAX = 5000;

export async function writeSupport(message: string): Promise<void> {
  await request('POST', '/api/v1/support', { body: { message } });
}
