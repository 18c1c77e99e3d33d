import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Evidence } from '../../api/evidence';
import { testEvidence } from '../../test/evidenceFixtures';
import { fakeServer, Reply } from '../../test/fakeServer';
import { testProfile } from '../../test/fixtures';
import { renderWithApp } from '../../test/renderApp';
import { CaptureButton } from './CaptureButton';

const user = userEvent.setup({ delay: null });

const record = testEvidence;

describe('CaptureButton', () => {
  it('captures the post and shows its files, hashes and timestamps', async () => {
    const requests = fakeServer({
      'POST /api/v1/evidence': new Reply(202, { data: { id: '5' } }),
      'GET /api/v1/evidence/5': { data: record({}) },
    });
    renderWithApp(<CaptureButton target={{ postId: 'p-1' }} />, { profile: testProfile() });
    await user.click(screen.getByRole('button', { name: 'Capture as evidence' }));
    const dialog = await screen.findByRole('dialog', { name: 'Evidence capture 5' });
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ postId: 'p-1' });
    expect(await within(dialog).findByText('Captured')).toBeInTheDocument();
    const files = within(dialog).getByRole('table', { name: 'Files' });
    expect(within(files).getByRole('link', { name: 'page.warc' })).toHaveAttribute(
      'href',
      '/api/v1/evidence/5/files/page.warc',
    );
    expect(within(files).getByText('ab'.repeat(32))).toBeInTheDocument();
    expect(within(dialog).getByText(/by https:\/\/tsa\.example\/tsr/)).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'Download bundle' })).toHaveAttribute(
      'href',
      '/api/v1/evidence/5/bundle',
    );
  });

  it('shows the progress while the capture runs, and what failed after', async () => {
    let state: Partial<Evidence> = { state: 'running', progress: 30, step: 'media', files: [], timestamps: [] };
    fakeServer({
      'POST /api/v1/evidence': new Reply(202, { data: { id: '5' } }),
      'GET /api/v1/evidence/5': () => ({ data: record(state) }),
    });
    renderWithApp(<CaptureButton target={{ postId: 'p-1' }} />, { profile: testProfile() });
    await user.click(screen.getByRole('button', { name: 'Capture as evidence' }));
    expect(await screen.findByText('Fetching the media')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Capture progress' })).toHaveAttribute('aria-valuenow', '30');
    state = { state: 'partial', errors: ['page https://example.test/p: the server answered 404'], timestamps: [] };
    expect(await screen.findByText('Captured in part', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText('page https://example.test/p: the server answered 404')).toBeInTheDocument();
    expect(screen.getByText('None.')).toBeInTheDocument();
  });

  it('says why a capture was refused', async () => {
    fakeServer({ 'POST /api/v1/evidence': new Reply(404, { message: 'The post was not found.' }) });
    renderWithApp(<CaptureButton target={{ postId: 'gone' }} />, { profile: testProfile() });
    await user.click(screen.getByRole('button', { name: 'Capture as evidence' }));
    expect(await screen.findByText('The post was not found.')).toBeInTheDocument();
  });
});
