import { createContext, useContext } from 'react';

/** Opens an address outside Sightline, after the external-link warning unless the user opted out. */
export type OpenExternalLink = (url: string) => void;

export const ExternalLinkContext = createContext<OpenExternalLink | null>(null);

export function useExternalLink(): OpenExternalLink {
  const open = useContext(ExternalLinkContext);
  if (!open) throw new Error('useExternalLink needs an ExternalLinkProvider');
  return open;
}
