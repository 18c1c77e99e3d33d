import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { testMatch } from '../../test/fixtures';
import { PostMedia } from './PostMedia';

const user = userEvent.setup({ delay: null });

describe('PostMedia', () => {
  it('loads a picture from another site through the proxy', () => {
    const { post } = testMatch(1, {}, { photos: [{ large: 'https://cdn.example.com/a.jpg' }] });
    render(<PostMedia post={post} blur={false} onOpenVideo={vi.fn()} />);
    expect(screen.getByRole('img', { name: 'Picture in the post' })).toHaveAttribute(
      'src',
      `/proxy/images/640x/${encodeURIComponent('https://cdn.example.com/a.jpg')}`,
    );
  });

  it('does not load a picture whose address is not http or https', () => {
    const { post } = testMatch(1, {}, { photos: [{ large: 'data:image/png;base64,AAAA' }] });
    render(<PostMedia post={post} blur={false} onOpenVideo={vi.fn()} />);
    expect(screen.queryByRole('img', { name: 'Picture in the post' })).not.toBeInTheDocument();
  });

  it.each([
    { link: 'https://www.youtube.com/watch?v=1', offered: true },
    { link: '/demo-media/drone-sky.svg', offered: false },
    { link: 'javascript:alert(1)', offered: false },
  ])('offers the video $link: $offered', async ({ link, offered }) => {
    const onOpenVideo = vi.fn();
    const { post } = testMatch(1, {}, { videos: [{ large: link }] });
    render(<PostMedia post={post} blur={false} onOpenVideo={onOpenVideo} />);
    const button = screen.queryByRole('button', { name: 'Open the video' });
    if (!offered) {
      expect(button).not.toBeInTheDocument();
      expect(screen.getByText('Video cannot be played')).toBeInTheDocument();
      return;
    }
    await user.click(button!);
    expect(onOpenVideo).toHaveBeenCalledWith(link);
  });

  // Issue 29: the spec's error states for media (search-side.md section 8).
  it('says "Image unavailable" where a picture fails to load, with nothing to reveal', () => {
    const { post } = testMatch(1, {}, { photos: [{ large: 'https://cdn.example.com/gone.jpg' }] });
    render(<PostMedia post={post} blur onOpenVideo={vi.fn()} />);
    expect(screen.getByRole('button', { name: 'Show media (sensitive)' })).toBeInTheDocument();
    fireEvent.error(screen.getByRole('img', { name: 'Picture in the post' }));
    expect(screen.getByText('Image unavailable')).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: 'Picture in the post' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Show media (sensitive)' })).not.toBeInTheDocument();
  });

  it('offers the video in place of a picture that fails to load', () => {
    const { post } = testMatch(
      1,
      {},
      { photos: [{ large: 'https://cdn.example.com/gone.jpg' }], videos: [{ large: 'https://video.example/1' }] },
    );
    render(<PostMedia post={post} blur={false} onOpenVideo={vi.fn()} />);
    expect(screen.queryByRole('button', { name: 'Open the video' })).not.toBeInTheDocument();
    fireEvent.error(screen.getByRole('img', { name: 'Picture in the post' }));
    expect(screen.getByRole('button', { name: 'Open the video' })).toBeInTheDocument();
    expect(screen.queryByText('Image unavailable')).not.toBeInTheDocument();
  });
});
