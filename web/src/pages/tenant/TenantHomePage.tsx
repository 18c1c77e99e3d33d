import ApartmentOutlined from '@mui/icons-material/ApartmentOutlined';
import Alert from '@mui/material/Alert';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { OrganizationCard } from '../../components/tenant/OrganizationCard';
import { useSnackbar } from '../../hooks/useSnackbar';
import { useOrganizationSwitch, useTenantOrganizationsQuery } from '../../hooks/useTenantQueries';

/** /tenant/home: the tenant's organizations, their usage this month and their switches. */
export function TenantHomePage() {
  const organizations = useTenantOrganizationsQuery();
  const change = useOrganizationSwitch();
  const snackbar = useSnackbar();
  return (
    <>
      <PageHeader
        title="Tenant portal"
        subtitle="Your tenant's organizations: what they use this month against their limits, and their features."
      />
      {organizations.isPending && (
        <Stack spacing={2} role="status" aria-label="Loading organizations">
          {[0, 1].map((row) => (
            <Skeleton key={row} variant="rounded" height={220} />
          ))}
        </Stack>
      )}
      {organizations.isError && <Alert severity="error">{organizations.error.message}</Alert>}
      {organizations.data?.length === 0 && (
        <EmptyState icon={ApartmentOutlined} title="No organizations yet">
          Organizations are made when their first user is created with the command line&apos;s user create command.
        </EmptyState>
      )}
      <Stack spacing={3}>
        {organizations.data?.map((o) => (
          <OrganizationCard
            key={o.id}
            organization={o}
            busy={change.isPending && change.variables.organizationId === o.id}
            onSwitch={(target, enabled) =>
              change.mutate(
                { organizationId: o.id, target, enabled },
                {
                  onSuccess: () => snackbar.show({ text: `${o.name} updated`, color: 'success' }),
                  onError: (error) => snackbar.show({ text: error.message, color: 'error' }),
                },
              )
            }
          />
        ))}
      </Stack>
    </>
  );
}
