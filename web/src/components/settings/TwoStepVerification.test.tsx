import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { settingsKeys } from '../../api/keys';
import { Reply, fakeServer } from '../../test/fakeServer';
import { testProfile } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';

const user = userEvent.setup({ delay: null });
const codes = Array.from({ length: 10 }, (_, i) => `abcd-efgh-ijkl-mn${String(i).padStart(2, '0')}`);

describe('two-step verification in Settings', () => {
  it('turns on with the password, a QR code or the setup key and a code, then shows the recovery codes once', async () => {
    const requests = fakeServer({
      'PUT /api/v1/settings/profile/mfa': ({ body }: { body: unknown }) => {
        const { code, current_password } = body as { enabled: boolean; code?: string; current_password?: string };
        if (code === undefined && current_password !== 'my-current-password') {
          return new Reply(422, {
            message: 'The current password is incorrect.',
            errors: { current_password: ['The current password is incorrect.'] },
          });
        }
        if (code === undefined) {
          return {
            data: {
              is_mfa_enabled: false,
              pending: true,
              secret: 'JBSWY3DPEHPK3PXPJBSWY3DP',
              otpauth_uri: 'otpauth://totp/Sightline:ada@example.test?secret=JBSWY3DPEHPK3PXPJBSWY3DP',
              qr_code: 'data:image/png;base64,iVBORw0KGgo=',
            },
          };
        }
        if (code !== '123456') {
          return new Reply(422, {
            message: 'That code is not valid. Try again.',
            errors: { code: ['That code is not valid. Try again.'] },
          });
        }
        return { data: { is_mfa_enabled: true, recovery_codes: codes } };
      },
      'GET /api/v1/settings/profile/state': { data: { is_mfa_enabled: true, recovery_codes_left: 10 } },
    });
    const { queryClient } = renderApp('/settings', { profile: testProfile() });
    const section = (await screen.findByRole('heading', { name: 'Two-step verification' })).parentElement!;
    expect(within(section).getByText('Off')).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'Turn on' }));
    const confirmPassword = within(section).getByRole('form', { name: 'Confirm your password' });
    expect(within(confirmPassword).getByRole('button', { name: 'Continue' })).toBeDisabled();
    await user.type(within(confirmPassword).getByLabelText('Current password'), 'a-wrong-password');
    await user.click(within(confirmPassword).getByRole('button', { name: 'Continue' }));
    expect(await within(confirmPassword).findByText('The current password is incorrect.')).toBeInTheDocument();
    await user.clear(within(confirmPassword).getByLabelText('Current password'));
    await user.type(within(confirmPassword).getByLabelText('Current password'), 'my-current-password');
    await user.click(within(confirmPassword).getByRole('button', { name: 'Continue' }));

    const form = await within(section).findByRole('form', { name: 'Turn on two-step verification' });
    expect(within(form).getByRole('img', { name: /QR code for your authenticator app/ })).toHaveAttribute(
      'src',
      'data:image/png;base64,iVBORw0KGgo=',
    );
    expect(within(form).getByLabelText('Setup key')).toHaveValue('JBSW Y3DP EHPK 3PXP JBSW Y3DP');
    const turnOn = within(form).getByRole('button', { name: 'Turn on' });
    expect(turnOn).toBeDisabled();
    await user.type(within(form).getByLabelText('6-digit code'), '00x0000');
    expect(within(form).getByLabelText('6-digit code')).toHaveValue('000000');
    await user.click(turnOn);
    expect(await within(form).findByText('That code is not valid. Try again.')).toBeInTheDocument();

    await user.clear(within(form).getByLabelText('6-digit code'));
    await user.type(within(form).getByLabelText('6-digit code'), '123456');
    await user.click(within(form).getByRole('button', { name: 'Turn on' }));
    const list = await within(section).findByRole('list', { name: 'Recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(codes);
    expect(within(section).getByText(/shown only this once/)).toBeInTheDocument();
    expect(within(section).getByRole('link', { name: 'Download' })).toHaveAttribute(
      'download',
      'sightline-recovery-codes.txt',
    );
    expect(queryClient.getQueryData<{ is_mfa_enabled: boolean }>(settingsKeys.profile)?.is_mfa_enabled).toBe(true);

    await user.click(within(section).getByRole('button', { name: 'I have saved them' }));
    expect(within(section).queryByRole('list', { name: 'Recovery codes' })).not.toBeInTheDocument();
    expect(await within(section).findByText('10 recovery codes left.')).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'PUT').map((r) => r.body)).toEqual([
      { enabled: true, current_password: 'a-wrong-password' },
      { enabled: true, current_password: 'my-current-password' },
      { enabled: true, code: '000000' },
      { enabled: true, code: '123456' },
    ]);
  });

  it('turns off only with the current password and a code', async () => {
    const requests = fakeServer({
      'GET /api/v1/settings/profile/state': { data: { is_mfa_enabled: true, recovery_codes_left: 2 } },
      'PUT /api/v1/settings/profile/mfa': ({ body }: { body: unknown }) => {
        const { code, current_password } = body as { code: string; current_password: string };
        if (current_password !== 'my-current-password') {
          return new Reply(422, {
            message: 'The current password is incorrect.',
            errors: { current_password: ['The current password is incorrect.'] },
          });
        }
        return code === 'abcd-efgh-ijkl-mnop'
          ? { data: { is_mfa_enabled: false, pending: false } }
          : new Reply(422, {
              message: 'That code is not valid. Try again.',
              errors: { code: ['That code is not valid. Try again.'] },
            });
      },
    });
    renderApp('/settings', { profile: testProfile({ is_mfa_enabled: true }) });
    const section = (await screen.findByRole('heading', { name: 'Two-step verification' })).parentElement!;
    expect(within(section).getByText('On')).toBeInTheDocument();
    expect(await within(section).findByText(/2 recovery codes left/)).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'Turn off' }));
    const form = within(section).getByRole('form', { name: 'Turn off two-step verification' });
    expect(within(form).getByRole('button', { name: 'Turn off' })).toBeDisabled();
    await user.type(within(form).getByLabelText('Code'), '999999');
    expect(within(form).getByRole('button', { name: 'Turn off' })).toBeDisabled();
    await user.type(within(form).getByLabelText('Current password'), 'a-wrong-password');
    await user.click(within(form).getByRole('button', { name: 'Turn off' }));
    expect(await within(form).findByText('The current password is incorrect.')).toBeInTheDocument();
    await user.clear(within(form).getByLabelText('Current password'));
    await user.type(within(form).getByLabelText('Current password'), 'my-current-password');
    await user.click(within(form).getByRole('button', { name: 'Turn off' }));
    expect(await within(form).findByText('That code is not valid. Try again.')).toBeInTheDocument();
    await user.clear(within(form).getByLabelText('Code'));
    await user.type(within(form).getByLabelText('Code'), 'abcd-efgh-ijkl-mnop');
    await user.click(within(form).getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText('Two-step verification is off')).toBeInTheDocument();
    expect(within(section).getByText('Off')).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'PUT').map((r) => r.body)).toEqual([
      { enabled: false, code: '999999', current_password: 'a-wrong-password' },
      { enabled: false, code: '999999', current_password: 'my-current-password' },
      { enabled: false, code: 'abcd-efgh-ijkl-mnop', current_password: 'my-current-password' },
    ]);
  });
});
