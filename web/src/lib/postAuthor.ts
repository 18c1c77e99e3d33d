import type { Post } from '../api/monitor';

/** Who a post is by, as cards and labels name them. */
export function authorOf(post: Post): string {
  return post.author_name || post.author_screen_name || 'Unknown author';
}
