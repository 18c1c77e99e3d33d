import { useQuery } from '@tanstack/react-query';
import { fetchOrganization } from '../api/settings';

export function useOrganizationQuery() {
  return useQuery({
    queryKey: ['settings', 'organizations', 'current'],
    queryFn: ({ signal }) => fetchOrganization(signal),
  });
}
