import { useSearchParams } from 'react-router';

/** Whether this page is shown inside another one's frame (?embedded=1): no rail, bars or panels. */
export function useEmbedded(): boolean {
  const [params] = useSearchParams();
  return params.get('embedded') === '1';
}
