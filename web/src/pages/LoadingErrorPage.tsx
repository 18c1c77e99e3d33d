import CloudOffOutlined from '@mui/icons-material/CloudOffOutlined';
import RefreshOutlined from '@mui/icons-material/RefreshOutlined';
import Button from '@mui/material/Button';
import { ErrorPage } from '../components/ErrorPage';
import { GENERIC_ERROR_MESSAGE } from '../api/transport';

/** Shown when the app cannot load what it needs to start, or a screen fails to render. */
export function LoadingErrorPage({ code = 0, message = GENERIC_ERROR_MESSAGE }: { code?: number; message?: string }) {
  return (
    <ErrorPage
      icon={CloudOffOutlined}
      title="Whoops"
      message={message}
      code={code}
      action={
        <Button variant="contained" onClick={() => window.location.reload()} startIcon={<RefreshOutlined />}>
          Try Again
        </Button>
      }
    />
  );
}
