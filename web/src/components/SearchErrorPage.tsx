import ArrowBackOutlined from '@mui/icons-material/ArrowBackOutlined';
import ErrorOutlineOutlined from '@mui/icons-material/ErrorOutlineOutlined';
import RefreshOutlined from '@mui/icons-material/RefreshOutlined';
import SearchOffOutlined from '@mui/icons-material/SearchOffOutlined';
import WifiOffOutlined from '@mui/icons-material/WifiOffOutlined';
import Button from '@mui/material/Button';
import { useProfile } from '../hooks/useProfileQuery';
import { retryable, searchError, searchErrorCode, searchErrorType } from '../lib/searchError';
import { supportAddress } from '../lib/support';
import { ErrorPage } from './ErrorPage';

const icons = { ERROR_404: SearchOffOutlined, ERROR_LOADING: WifiOffOutlined, ERROR_UNKNOWN: ErrorOutlineOutlined };

/**
 * The spec's "Search Error" page, in place of a Beacon or Locate search's results when the
 * search failed: the server's words (or fallback), the HTTP code when there was one, and the
 * action its error type calls for: Go Back for ERROR_404, Try again for ERROR_LOADING (and for an
 * ERROR_UNKNOWN that asking again may mend), none but Contact support for a refused search.
 */
export function SearchErrorPage({ error, fallback, onRetry }: { error: Error; fallback: string; onRetry: () => void }) {
  const profile = useProfile();
  const type = searchErrorType(error);
  const action =
    type === 'ERROR_404' ? (
      <Button variant="contained" onClick={() => window.history.back()} startIcon={<ArrowBackOutlined />}>
        Go Back
      </Button>
    ) : type === 'ERROR_LOADING' || retryable(error) ? (
      <Button variant="contained" onClick={onRetry} startIcon={<RefreshOutlined />}>
        Try again
      </Button>
    ) : null;
  return (
    <div data-error-type={type}>
      <ErrorPage
        icon={icons[type]}
        title="Search Error"
        message={searchError(error, fallback)}
        code={searchErrorCode(error)}
        action={action}
        supportEmail={supportAddress(profile)}
        headingLevel="h2"
      />
    </div>
  );
}
