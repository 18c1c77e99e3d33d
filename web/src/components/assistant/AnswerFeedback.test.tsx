import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeServer, Reply } from '../../test/fakeServer';
import { testProfile } from '../../test/fixtures';
import { renderWithApp } from '../../test/renderApp';
import { AnswerFeedback, FEEDBACK_ERROR } from './AnswerFeedback';

const user = userEvent.setup({ delay: null });
const path = '/api/v1/ai-insights/messages/41/feedback';
const saved = (rating: string, comment = '') => ({
  data: { message_id: 41, rating, comment, updated_at: 1_795_580_000 },
});

describe('feedback on an answer', () => {
  it('saves a thumbs up at once, and withdraws it on a second click', async () => {
    const requests = fakeServer({ [`PUT ${path}`]: saved('up'), [`DELETE ${path}`]: {} });
    renderWithApp(<AnswerFeedback messageId={41} />, { profile: testProfile() });
    const up = await screen.findByRole('button', { name: 'Helpful' });
    expect(up).toHaveAttribute('aria-pressed', 'false');
    await user.click(up);
    expect(up).toHaveAttribute('aria-pressed', 'true');
    expect(await screen.findByText('Thanks for the feedback.')).toBeInTheDocument();
    expect(requests.filter((r) => r.path === path).map((r) => [r.method, r.body])).toEqual([
      ['PUT', { rating: 'up', comment: '' }],
    ]);
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();

    await waitFor(() => expect(up).toBeEnabled());
    await user.click(up);
    await waitFor(() => expect(requests.filter((r) => r.method === 'DELETE')).toHaveLength(1));
    expect(up).toHaveAttribute('aria-pressed', 'false');
  });

  it('saves a thumbs down, then sends what was wrong with it', async () => {
    const requests = fakeServer({
      [`PUT ${path}`]: (r: { body: { comment: string } }) => saved('down', r.body.comment),
    });
    renderWithApp(<AnswerFeedback messageId={41} />, { profile: testProfile() });
    await user.click(await screen.findByRole('button', { name: 'Not helpful' }));
    const comment = await screen.findByRole('textbox', { name: 'What was wrong? (optional)' });
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    await user.type(comment, '  It missed the arrests.  ');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Thanks for the feedback.')).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Not helpful' })).toHaveAttribute('aria-pressed', 'true');
    expect(requests.filter((r) => r.path === path).map((r) => r.body)).toEqual([
      { rating: 'down', comment: '' },
      { rating: 'down', comment: 'It missed the arrests.' },
    ]);
  });

  it('shows the rating given before', async () => {
    fakeServer({});
    renderWithApp(
      <AnswerFeedback messageId={41} initial={{ message_id: 41, rating: 'down', comment: 'Old', updated_at: 1 }} />,
      { profile: testProfile() },
    );
    expect(await screen.findByRole('button', { name: 'Not helpful' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Helpful' })).toHaveAttribute('aria-pressed', 'false');
  });

  it('says so when the feedback cannot be saved, and keeps the rating it had', async () => {
    fakeServer({ [`PUT ${path}`]: new Reply(500, { message: 'Something went wrong.' }) });
    renderWithApp(<AnswerFeedback messageId={41} />, { profile: testProfile() });
    const up = await screen.findByRole('button', { name: 'Helpful' });
    await user.click(up);
    expect(await screen.findByRole('alert')).toHaveTextContent(FEEDBACK_ERROR);
    expect(up).toHaveAttribute('aria-pressed', 'false');
    expect(screen.queryByText('Thanks for the feedback.')).not.toBeInTheDocument();
  });
});
