import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/transport';
import { authorizeWithRetry } from './liveChannel';

describe('channel authorization', () => {
  it('asks once when the server agrees', async () => {
    const authorize = vi.fn().mockResolvedValue({ auth: 'key:sig' });
    const renew = vi.fn();
    await expect(authorizeWithRetry('1.2', 'private-user.1', authorize, renew)).resolves.toEqual({ auth: 'key:sig' });
    expect(authorize).toHaveBeenCalledTimes(1);
    expect(renew).not.toHaveBeenCalled();
  });

  it('renews the token once and asks again after a refusal', async () => {
    const authorize = vi
      .fn()
      .mockRejectedValueOnce(new ApiError('Unauthenticated', 401))
      .mockResolvedValueOnce({ auth: 'key:sig' });
    const renew = vi.fn().mockResolvedValue(undefined);
    await expect(authorizeWithRetry('1.2', 'private-user.1', authorize, renew)).resolves.toEqual({ auth: 'key:sig' });
    expect(renew).toHaveBeenCalledTimes(1);
    expect(authorize).toHaveBeenCalledTimes(2);
  });

  it('passes a second failure to the caller', async () => {
    const refusal = new ApiError('Forbidden', 403);
    const authorize = vi.fn().mockRejectedValue(refusal);
    const renew = vi.fn().mockResolvedValue(undefined);
    await expect(authorizeWithRetry('1.2', 'private-user.1', authorize, renew)).rejects.toBe(refusal);
    expect(authorize).toHaveBeenCalledTimes(2);
  });
});
