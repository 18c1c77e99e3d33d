import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import type { Export } from '../../api/exports';
import { useExportToasts } from '../../hooks/useExportToasts';
import { Reply, fakeServer } from '../../test/fakeServer';
import { testProfile } from '../../test/fixtures';
import { renderApp, renderWithApp } from '../../test/renderApp';
import { ExportDialog } from './ExportDialog';
import { ExportToastProvider } from './ExportToastProvider';

const user = userEvent.setup({ delay: null });
const now = Math.floor(Date.now() / 1000);

function anExport(overrides: Partial<Export> = {}): Export {
  return {
    id: '42',
    source: 'matches',
    format: 'csv',
    columns: ['id', 'contentText'],
    status: 'pending',
    postCount: 12,
    createdAt: now,
    finishedAt: null,
    expiresAt: now + 30 * 86400,
    error: '',
    downloadUrl: null,
    email: '',
    emailStatus: '',
    ...overrides,
  };
}

function Harness({ dialog }: { dialog: boolean }) {
  const [open, setOpen] = useState(dialog);
  const toasts = useExportToasts();
  return (
    <>
      <button onClick={() => toasts.ready({ link: 'http://app.test/api/v1/exports/7/download', ttl: 0 })}>
        expired event
      </button>
      <button onClick={() => toasts.ready({ link: 'http://app.test/api/v1/exports/8/download', ttl: 90 })}>
        ready event
      </button>
      {open && (
        <ExportDialog
          open
          onClose={() => setOpen(false)}
          selection={{ source: 'matches', matchIds: [3, 4] }}
          what="the 2 chosen matches"
          count={2}
        />
      )}
    </>
  );
}

function renderHarness(dialog = true, profile = testProfile()) {
  return renderWithApp(
    <ExportToastProvider>
      <Harness dialog={dialog} />
    </ExportToastProvider>,
    { profile },
  );
}

describe('export dialog and toasts', () => {
  it('refuses an invalid address, then requests the export and shows it in progress until ready', async () => {
    // The history is fetched again every 3 s while an export is written: the test moves the
    // clock there rather than waiting for it.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    let ready = false;
    const requests = fakeServer({
      'POST /api/v1/exports': { data: anExport() },
      'GET /api/v1/exports': () => ({
        data: [ready ? anExport({ status: 'ready', downloadUrl: '/api/v1/exports/42/download' }) : anExport()],
      }),
    });
    renderHarness();
    const dialog = await screen.findByRole('dialog', { name: 'Export posts' });
    expect(dialog).toHaveTextContent('the 2 chosen matches (2 posts)');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Language' }));
    await user.click(within(dialog).getByRole('radio', { name: 'JSON' }));
    await user.type(within(dialog).getByLabelText(/E-mail the link/), 'ana@');
    await user.click(within(dialog).getByRole('button', { name: 'Export' }));
    expect(within(dialog).getByText('The provided email address is invalid')).toBeInTheDocument();
    expect(requests.some((r) => r.method === 'POST')).toBe(false);

    await user.type(within(dialog).getByLabelText(/E-mail the link/), 'acme.test');
    await user.click(within(dialog).getByRole('button', { name: 'Export' }));
    expect(await screen.findByText(/Preparing your export/)).toBeInTheDocument();
    const body = requests.find((r) => r.method === 'POST')?.body as Record<string, unknown>;
    expect(body).toMatchObject({ source: 'matches', matchIds: [3, 4], format: 'json', email: 'ana@acme.test' });
    expect(body.columns).toContain('language');
    expect(body.columns).toContain('matchedTerms');

    ready = true;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(3000);
    });
    expect(await screen.findByText(/Your export is ready/)).toHaveTextContent('29 days');
    await waitFor(() => expect(screen.queryByText(/Preparing your export/)).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByText(/Your export is ready/)).not.toBeInTheDocument());
  });

  it('offers no address to mail the link to on a server without e-mail, and says so', async () => {
    const requests = fakeServer({ 'POST /api/v1/exports': { data: anExport() } });
    renderHarness(true, testProfile({ emailDelivery: false }));
    const dialog = await screen.findByRole('dialog', { name: 'Export posts' });
    expect(within(dialog).queryByLabelText(/E-mail the link/)).not.toBeInTheDocument();
    expect(dialog).toHaveTextContent('E-mail delivery is not configured on this server');
    await user.click(within(dialog).getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(requests.some((r) => r.method === 'POST')).toBe(true));
    expect(requests.find((r) => r.method === 'POST')?.body).not.toHaveProperty('email');
  });

  it('shows the server’s refusal in the dialog', async () => {
    fakeServer({ 'POST /api/v1/exports': new Reply(422, { message: 'You have no posts to export...' }) });
    renderHarness();
    const dialog = await screen.findByRole('dialog', { name: 'Export posts' });
    await user.click(within(dialog).getByRole('button', { name: 'Export' }));
    expect(await within(dialog).findByText('You have no posts to export...')).toBeInTheDocument();
  });

  it('shows a live ready event only while its link lives, counting down; Download opens it', async () => {
    fakeServer({});
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    renderHarness(false);
    await user.click(await screen.findByRole('button', { name: 'expired event' }));
    expect(screen.queryByText(/Your export is ready/)).not.toBeInTheDocument();
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      await user.click(screen.getByRole('button', { name: 'ready event' }));
      expect(await screen.findByText(/Your export is ready/)).toHaveTextContent('valid for 1 minute');
      await act(async () => {
        await vi.advanceTimersByTimeAsync(31_000);
      });
      expect(screen.getByText(/Your export is ready/)).toHaveTextContent('valid for 59 seconds');
    } finally {
      vi.useRealTimers();
    }
    await user.click(screen.getByRole('button', { name: 'Download' }));
    expect(open).toHaveBeenCalledWith('http://app.test/api/v1/exports/8/download', '_blank', 'noopener');
    await waitFor(() => expect(screen.queryByText(/Your export is ready/)).not.toBeInTheDocument());
    open.mockRestore();
  });
});

describe('exports page', () => {
  it('lists the exports with their state, a download when ready and the reason when failed', async () => {
    fakeServer({
      'GET /api/v1/exports': {
        data: [
          anExport({ id: '2', status: 'ready', downloadUrl: '/api/v1/exports/2/download', emailStatus: 'off' }),
          anExport({ id: '1', status: 'failed', error: 'Something went wrong. We were unable to export these posts.' }),
        ],
      },
    });
    renderApp('/exports', { profile: testProfile() });
    const table = await screen.findByRole('table', { name: 'Exports' });
    expect(within(table).getByRole('link', { name: /^Download/ })).toHaveAttribute(
      'href',
      '/api/v1/exports/2/download',
    );
    expect(table).toHaveTextContent('not e-mailed: this server sends no e-mail');
    expect(table).toHaveTextContent('Something went wrong. We were unable to export these posts.');
  });

  it('says how to make an export when there is none', async () => {
    fakeServer({ 'GET /api/v1/exports': { data: [] } });
    renderApp('/exports', { profile: testProfile() });
    expect(await screen.findByText('No exports yet')).toBeInTheDocument();
  });
});
