import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type DataRouter, RouterProvider } from 'react-router';
import { AppThemeProvider } from './components/AppThemeProvider';
import { ConfirmDialogProvider } from './components/ConfirmDialogProvider';
import { ExternalLinkProvider } from './components/ExternalLinkProvider';
import { LimitDialogProvider } from './components/LimitDialogProvider';
import { SnackbarProvider } from './components/SnackbarProvider';

/** The providers every screen relies on, around the router. */
export function App({ router, queryClient }: { router: DataRouter; queryClient: QueryClient }) {
  return (
    <QueryClientProvider client={queryClient}>
      <AppThemeProvider>
        <SnackbarProvider>
          <ConfirmDialogProvider>
            <LimitDialogProvider>
              <ExternalLinkProvider>
                <RouterProvider router={router} />
              </ExternalLinkProvider>
            </LimitDialogProvider>
          </ConfirmDialogProvider>
        </SnackbarProvider>
      </AppThemeProvider>
    </QueryClientProvider>
  );
}
