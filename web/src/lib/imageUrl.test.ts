import { describe, expect, it } from 'vitest';
import { proxiedImageUrl } from './imageUrl';

const origin = 'https://sightline.example';
const proxied = (url: string, width?: number) => `/proxy/images/${width ? `${width}x/` : ''}${encodeURIComponent(url)}`;

describe('proxiedImageUrl', () => {
  it.each([
    {
      name: 'another site',
      picture: 'https://cdn.example.com/a b.jpg?x=1',
      width: undefined,
      want: proxied('https://cdn.example.com/a%20b.jpg?x=1'),
    },
    {
      name: 'another site, narrower',
      picture: 'http://cdn.example.com/a.jpg',
      width: 320,
      want: proxied('http://cdn.example.com/a.jpg', 320),
    },
    {
      name: 'demo media by path',
      picture: '/demo-media/protest.svg',
      width: 320,
      want: `${origin}/demo-media/protest.svg`,
    },
    {
      name: 'demo media by address',
      picture: `${origin}/demo-media/a.svg`,
      width: undefined,
      want: `${origin}/demo-media/a.svg`,
    },
    {
      name: 'demo media path on another site',
      picture: 'https://evil.example/demo-media/a.svg',
      width: 320,
      want: proxied('https://evil.example/demo-media/a.svg', 320),
    },
    {
      name: 'demo media path on another port',
      picture: 'https://sightline.example:8443/demo-media/a.svg',
      width: undefined,
      want: proxied('https://sightline.example:8443/demo-media/a.svg'),
    },
    {
      name: 'protocol-relative demo media path on another site',
      picture: '//evil.example/demo-media/a.svg',
      width: undefined,
      want: proxied('https://evil.example/demo-media/a.svg'),
    },
    {
      name: 'a dot segment out of the demo media',
      picture: '/demo-media/../logout',
      width: undefined,
      want: proxied(`${origin}/logout`),
    },
    {
      name: 'an encoded dot segment out of the demo media',
      picture: '/demo-media/%2e%2e/logout',
      width: undefined,
      want: proxied(`${origin}/logout`),
    },
    { name: 'another same-origin path', picture: '/logout', width: undefined, want: proxied(`${origin}/logout`) },
    {
      name: 'media assets on another site',
      picture: 'https://media.example.com/api/v4/media/assets/42',
      width: 320,
      want: proxied('https://media.example.com/api/v4/media/assets/42', 320),
    },
    { name: 'a data URL', picture: 'data:image/png;base64,AAAA', width: undefined, want: undefined },
    { name: 'a javascript URL', picture: 'javascript:alert(1)', width: undefined, want: undefined },
    { name: 'a blob URL', picture: 'blob:https://sightline.example/1', width: undefined, want: undefined },
  ])('$name', ({ picture, width, want }) => {
    expect(proxiedImageUrl(picture, width, origin)).toBe(want);
  });
});
