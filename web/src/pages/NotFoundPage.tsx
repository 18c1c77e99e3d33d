import ArrowBackOutlined from '@mui/icons-material/ArrowBackOutlined';
import ExploreOffOutlined from '@mui/icons-material/ExploreOffOutlined';
import Button from '@mui/material/Button';
import { useQuery } from '@tanstack/react-query';
import { ErrorPage } from '../components/ErrorPage';
import { useAppNavigate } from '../hooks/useAppNavigate';
import { profileQuery } from '../hooks/useProfileQuery';
import { HOME_PATH } from '../lib/redirect';
import { supportAddress } from '../lib/support';

export function NotFoundPage() {
  const appNavigate = useAppNavigate();
  const { data: profile } = useQuery({ ...profileQuery, enabled: false });
  const goBack = () => {
    // A page opened directly has nowhere to go back to; home is the next best place.
    if (window.history.length > 1) window.history.back();
    else appNavigate(HOME_PATH);
  };
  return (
    <ErrorPage
      icon={ExploreOffOutlined}
      title="You seem lost"
      message="The page you were attempting to view is not available!"
      code={404}
      supportEmail={profile && supportAddress(profile)}
      action={
        <Button variant="contained" onClick={goBack} startIcon={<ArrowBackOutlined />}>
          Go Back
        </Button>
      }
    />
  );
}
