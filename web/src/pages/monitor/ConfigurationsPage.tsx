import LocationOnOutlined from '@mui/icons-material/LocationOnOutlined';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';

export function ConfigurationsPage() {
  return (
    <>
      <PageHeader
        title="Location configurations"
        subtitle="Named places, each an address and its bounds, that proximity alerts watch."
      />
      <EmptyState icon={LocationOnOutlined} title="No location configurations yet">
        Location configurations arrive with alerts. Once they do, add the places you care about here and choose them
        when you set up a proximity alert.
      </EmptyState>
    </>
  );
}
