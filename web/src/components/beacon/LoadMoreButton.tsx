import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';

/** Appends the next page of results; shows that it is loading. */
export function LoadMoreButton({ loading, onClick }: { loading: boolean; onClick: () => void }) {
  return (
    <Button
      variant="contained"
      onClick={onClick}
      disabled={loading}
      startIcon={loading ? <CircularProgress size={16} color="inherit" aria-label="Loading more results" /> : undefined}
    >
      {loading ? 'Loading…' : 'Load more'}
    </Button>
  );
}
