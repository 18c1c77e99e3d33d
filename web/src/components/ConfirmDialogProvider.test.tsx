import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ConfirmOptions, useConfirm } from '../hooks/useConfirm';
import { NEVER_EXPIRES } from '../lib/cookies';
import { ConfirmDialogProvider } from './ConfirmDialogProvider';

const COOKIE = 'skip-flag-warning';

function Asker(options: ConfirmOptions) {
  const confirm = useConfirm();
  return <button onClick={() => confirm(options)}>Flag</button>;
}

function renderAsker(options: Partial<ConfirmOptions> = {}) {
  const onAccept = vi.fn();
  const onCancel = vi.fn();
  render(
    <ConfirmDialogProvider>
      <Asker
        title="Flag these posts?"
        text="Flagged posts are kept for export."
        icon="warning"
        acceptLabel="Flag"
        onAccept={onAccept}
        onCancel={onCancel}
        {...options}
      />
    </ConfirmDialogProvider>,
  );
  return { onAccept, onCancel };
}

const askAndGetDialog = async () => {
  await userEvent.click(screen.getByRole('button', { name: 'Flag' }));
  return screen.findByRole('dialog', { name: 'Flag these posts?' });
};

afterEach(() => {
  document.cookie = `${COOKIE}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
});

describe('confirm dialog', () => {
  it('runs the accept callback on accept', async () => {
    const { onAccept, onCancel } = renderAsker();
    const dialog = await askAndGetDialog();
    expect(dialog).toHaveTextContent('Flagged posts are kept for export.');
    expect(within(dialog).queryByRole('checkbox')).not.toBeInTheDocument();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Flag' }));

    expect(onAccept).toHaveBeenCalledTimes(1);
    expect(onCancel).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('runs the cancel callback on cancel', async () => {
    const { onAccept, onCancel } = renderAsker();
    await userEvent.click(within(await askAndGetDialog()).getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onAccept).not.toHaveBeenCalled();
  });

  it('sets a never-expiring cookie when "Do not show again" is ticked', async () => {
    const written: string[] = [];
    const cookie = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie');
    vi.spyOn(document, 'cookie', 'set').mockImplementation((value: string) => {
      written.push(value);
      cookie?.set?.call(document, value);
    });
    const { onAccept } = renderAsker({ doNotShowAgainCookie: COOKIE });

    const dialog = await askAndGetDialog();
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Do not show again' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Flag' }));

    expect(onAccept).toHaveBeenCalledTimes(1);
    expect(written).toEqual([`${COOKIE}=1; expires=${NEVER_EXPIRES}; path=/; SameSite=Lax`]);
  });

  it('sets no cookie when the box is left unticked', async () => {
    renderAsker({ doNotShowAgainCookie: COOKIE });
    await userEvent.click(within(await askAndGetDialog()).getByRole('button', { name: 'Flag' }));
    expect(document.cookie).not.toContain(COOKIE);
  });

  it('skips the dialog and accepts at once while the cookie exists', async () => {
    document.cookie = `${COOKIE}=1; path=/`;
    const { onAccept } = renderAsker({ doNotShowAgainCookie: COOKIE });

    await userEvent.click(screen.getByRole('button', { name: 'Flag' }));

    expect(onAccept).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
