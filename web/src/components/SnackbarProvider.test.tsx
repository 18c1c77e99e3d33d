import { act, render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type SnackbarService, useSnackbar } from '../hooks/useSnackbar';
import { SnackbarProvider } from './SnackbarProvider';

let service: SnackbarService;

function Capture({ onService }: { onService: (service: SnackbarService) => void }) {
  const snackbar = useSnackbar();
  useEffect(() => onService(snackbar), [snackbar, onService]);
  return null;
}

function renderSnackbar() {
  render(
    <SnackbarProvider>
      <Capture
        onService={(snackbar) => {
          service = snackbar;
        }}
      />
    </SnackbarProvider>,
  );
}

function show(message: Parameters<SnackbarService['show']>[0]): boolean {
  let shown = false;
  act(() => {
    shown = service.show(message);
  });
  return shown;
}

// Steps of 100 ms let React render between timers, so the close transition starts on time.
async function wait(ms: number) {
  for (let waited = 0; waited < ms; waited += 100) {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(100);
    });
  }
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('snackbar', () => {
  it('shows the text in its colour and closes after 2000 ms', async () => {
    renderSnackbar();
    show({ text: 'Group created', color: 'success' });

    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Group created');
    expect(alert.className).toMatch(/colorSuccess/);

    await wait(1900);
    expect(screen.getByText('Group created')).toBeInTheDocument();
    await wait(1000);
    expect(screen.queryByText('Group created')).not.toBeInTheDocument();
  });

  it('honours a given timeout', async () => {
    renderSnackbar();
    show({ text: 'Exporting', timeout: 6000 });
    await wait(5000);
    expect(screen.getByText('Exporting')).toBeInTheDocument();
    await wait(2000);
    expect(screen.queryByText('Exporting')).not.toBeInTheDocument();
  });

  it('keeps a persistent message until it is closed', async () => {
    renderSnackbar();
    show({ text: 'Save failed. Check your network connection and try again.', color: 'error', persistent: true });
    await wait(60_000);
    expect(screen.getByText('Save failed. Check your network connection and try again.')).toBeInTheDocument();

    act(() => screen.getByRole('button', { name: 'Close' }).click());
    await wait(1000);
    expect(screen.queryByText(/Save failed/)).not.toBeInTheDocument();
  });

  it('drops later messages while a locked one holds, then accepts them again', async () => {
    renderSnackbar();
    expect(show({ text: 'Search deleted', lockFor: 3000 })).toBe(true);

    await wait(1000);
    expect(show({ text: 'Something went wrong' })).toBe(false);
    expect(screen.getByText('Search deleted')).toBeInTheDocument();
    expect(screen.queryByText('Something went wrong')).not.toBeInTheDocument();

    await wait(2000);
    expect(show({ text: 'Group updated' })).toBe(true);
    expect(screen.getByText('Group updated')).toBeInTheDocument();
  });

  it('replaces an unlocked message with the next one', async () => {
    renderSnackbar();
    show({ text: 'First' });
    expect(show({ text: 'Second' })).toBe(true);
    await wait(500);
    expect(screen.getByText('Second')).toBeInTheDocument();
    expect(screen.queryByText('First')).not.toBeInTheDocument();
  });
});
