// Where help lives. The project's public home follows from the Go module path; change these
// two lines if the documentation moves.
export const LEARNING_RESOURCES_URL = 'https://github.com/sightline/sightline#readme';
export const HELP_CENTRE_URL = 'https://github.com/sightline/sightline/issues';

export const SUPPORT_REPLY_PROMISE = 'We reply within 2 to 3 business days.';

/**
 * The support address to offer a user: none when the tenant has none, or when it is the user's
 * own (setup makes the first administrator the tenant's contact, who would be told to write to
 * themselves).
 */
export function supportAddress(profile: { email: string; tenant: { support_email: string } }): string | undefined {
  const address = profile.tenant.support_email.trim();
  return address === '' || address.toLowerCase() === profile.email.trim().toLowerCase() ? undefined : address;
}

/** Where a contact button leads: the tenant's support mailbox, else the help centre. */
export function contactHref(supportEmail: string | undefined): string {
  return supportEmail ? `mailto:${supportEmail}` : HELP_CENTRE_URL;
}
