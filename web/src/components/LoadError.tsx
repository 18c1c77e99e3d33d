import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import type { ReactNode } from 'react';

/**
 * What a failed load says, with a way to try again (the charts' spec wording is "Try Again"),
 * unless trying again cannot help (no onRetry).
 */
export function LoadError({
  children,
  onRetry,
  retryLabel = 'Try again',
}: {
  children: ReactNode;
  onRetry?: () => void;
  retryLabel?: string;
}) {
  return (
    <Alert
      severity="error"
      action={
        onRetry && (
          <Button color="inherit" size="small" onClick={onRetry}>
            {retryLabel}
          </Button>
        )
      }
    >
      {children}
    </Alert>
  );
}
