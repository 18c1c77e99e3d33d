import { describe, expect, it } from 'vitest';
import { proxiedImageUrl } from './imageUrl';

const origin = 'https://sightline.example';

describe('proxiedImageUrl', () => {
  it.each([
    {
      name: 'another site',
      picture: 'https://cdn.example.com/a b.jpg?x=1',
      width: undefined,
      want: `/proxy/images/${encodeURIComponent('https://cdn.example.com/a%20b.jpg?x=1')}`,
    },
    {
      name: 'another site, narrower',
      picture: 'http://cdn.example.com/a.jpg',
      width: 320,
      want: `/proxy/images/320x/${encodeURIComponent('http://cdn.example.com/a.jpg')}`,
    },
    { name: 'a same-origin path', picture: '/demo-media/protest.svg', width: 320, want: '/demo-media/protest.svg' },
    {
      name: 'a same-origin address',
      picture: `${origin}/demo-media/a.svg`,
      width: undefined,
      want: `${origin}/demo-media/a.svg`,
    },
    {
      name: 'media assets elsewhere',
      picture: 'https://media.example.com/api/v4/media/assets/42',
      width: 320,
      want: 'https://media.example.com/api/v4/media/assets/42',
    },
    { name: 'a data URL', picture: 'data:image/png;base64,AAAA', width: undefined, want: 'data:image/png;base64,AAAA' },
  ])('$name', ({ picture, width, want }) => {
    expect(proxiedImageUrl(picture, width, origin)).toBe(want);
  });
});
