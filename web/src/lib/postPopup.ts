import type { Post, Provider } from '../api/monitor';
import { authorOf } from './postAuthor';

const EXCERPT = 240;

/** A map marker's popup for a post: who, where from, and the start of what it says. */
export function postPopup(post: Post, provider: Provider | undefined): HTMLElement {
  // Built from text nodes: post text is never parsed as HTML.
  const root = document.createElement('div');
  const title = document.createElement('strong');
  title.textContent = `${authorOf(post)} · ${provider?.displayName ?? post.provider}`;
  const text = document.createElement('p');
  const body = post.title_text || post.content_text || '';
  text.textContent = body.length > EXCERPT ? `${body.slice(0, EXCERPT)}…` : body;
  text.style.margin = '6px 0 0';
  root.append(title, text);
  return root;
}
