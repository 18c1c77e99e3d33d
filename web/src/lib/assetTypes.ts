import type { AssetType } from '../api/assets';

/** Each asset type's name on screen and what its value must be (the server's rules, internal/asset). */
export const ASSET_TYPE_TEXT: Record<AssetType, { label: string; hint: string; placeholder: string }> = {
  author: { label: 'Author', hint: 'A name or handle the organization watches.', placeholder: '@handle' },
  domain: {
    label: 'Domain',
    hint: 'A host name of two labels or more; international names are kept in punycode.',
    placeholder: 'example.com',
  },
  email: { label: 'E-mail address', hint: 'One address, kept in lower case.', placeholder: 'name@example.com' },
  ip_address: { label: 'IP address', hint: 'One IPv4 or IPv6 address, without a range.', placeholder: '203.0.113.7' },
  text: { label: 'Text', hint: 'Any word or phrase.', placeholder: 'Project name' },
  iin_bin: {
    label: 'IIN/BIN',
    hint: 'The 6 or 8 first digits of the organization’s cards; never a whole card number.',
    placeholder: '412345',
  },
  social_board: { label: 'Social board', hint: 'A board, channel or community name.', placeholder: 'r/example' },
  location_search: { label: 'Location search', hint: 'A place to watch.', placeholder: 'Lyon, France' },
};
