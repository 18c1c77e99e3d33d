import { Navigate, type RouteObject } from 'react-router';
import { AppShell } from './components/AppShell';
import { ProductGate } from './components/ProductPromotion';
import { SessionGate } from './components/SessionGate';
import { AuthorPage } from './pages/beacon/AuthorPage';
import { BeaconHomePage } from './pages/beacon/BeaconHomePage';
import { BeaconResultsPage } from './pages/beacon/BeaconResultsPage';
import { CasePage } from './pages/cases/CasePage';
import { CasesPage } from './pages/cases/CasesPage';
import { ExportsPage } from './pages/ExportsPage';
import { HistoryPage } from './pages/HistoryPage';
import { InvitePage } from './pages/InvitePage';
import { LoadingErrorPage } from './pages/LoadingErrorPage';
import { LocateLinkPage, LocatePage } from './pages/locate/LocatePage';
import { LocateSavedPage } from './pages/locate/LocateSavedPage';
import { SearchFiltersPage } from './pages/locate/SearchFiltersPage';
import { LoginPage } from './pages/LoginPage';
import { AssetsPage } from './pages/monitor/AssetsPage';
import { ConfigurationsPage } from './pages/monitor/ConfigurationsPage';
import { CustomizePage } from './pages/monitor/CustomizePage';
import { DashboardPage } from './pages/monitor/DashboardPage';
import { FilterEditPage } from './pages/monitor/FilterEditPage';
import { FilterNewPage } from './pages/monitor/FilterNewPage';
import { FiltersPage } from './pages/monitor/FiltersPage';
import { GroupPage } from './pages/monitor/GroupPage';
import { GroupsPage } from './pages/monitor/GroupsPage';
import { InboxPage } from './pages/monitor/InboxPage';
import { InboxRedirect } from './pages/monitor/InboxRedirect';
import { MonitorLayout, type MonitorRouteHandle } from './pages/monitor/MonitorLayout';
import { MonitorSearchPage } from './pages/monitor/MonitorSearchPage';
import { StoryPage } from './pages/monitor/StoryPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { PortalPage } from './pages/PortalPage';
import { SettingsPage } from './pages/SettingsPage';
import { TenantHomePage } from './pages/tenant/TenantHomePage';
import { TenantLayout } from './pages/tenant/TenantLayout';
import { TenantTokensPage } from './pages/tenant/TenantTokensPage';
import { TenantUsersPage } from './pages/tenant/TenantUsersPage';
import { AnnouncementsPage } from './pages/tenant/AnnouncementsPage';
import { AuditLogsPage } from './pages/tenant/AuditLogsPage';
import { SourcesPage } from './pages/SourcesPage';
import { HOME_PATH } from './lib/redirect';

// Screens that fill the height and scroll inside, like the inbox's grid and list.
const fullHeight: MonitorRouteHandle = { fullHeight: true };

// Monitor's screens, mounted at /monitor and again at its /assets alias.
const monitorChildren: RouteObject[] = [
  { index: true, element: <Navigate to="dashboard" replace /> },
  { path: 'dashboard', element: <DashboardPage /> },
  { path: 'customize', element: <CustomizePage /> },
  { path: 'filters', element: <FiltersPage /> },
  { path: 'filters/new', element: <FilterNewPage /> },
  { path: 'filters/:id', element: <FilterEditPage /> },
  { path: 'configurations', element: <ConfigurationsPage /> },
  { path: 'assets', element: <AssetsPage /> },
  { path: 'groups', element: <GroupsPage /> },
  { path: 'groups/:groupId', element: <GroupPage /> },
  { path: 'matches', element: <InboxRedirect /> },
  { path: 'matches/grid', element: <InboxPage view="grid" />, handle: fullHeight },
  { path: 'matches/list', element: <InboxPage view="list" />, handle: fullHeight },
  { path: 'matches/map', element: <InboxPage view="map" />, handle: fullHeight },
  // Stories load a page at a time behind "Load more", so the page scrolls as a whole.
  { path: 'matches/stories', element: <InboxPage view="stories" /> },
  { path: 'stories/:id', element: <StoryPage /> },
  { path: ':monitorSearchId/:location?', element: <MonitorSearchPage />, handle: fullHeight },
  { path: '*', element: <NotFoundPage /> },
];

/** The app's one routing table. */
export const routes: RouteObject[] = [
  { path: '/login', element: <LoginPage /> },
  // An invitation's link: public, outside the signed-in shell.
  { path: '/invite/:token', element: <InvitePage /> },
  {
    element: <SessionGate />,
    errorElement: <LoadingErrorPage />,
    children: [
      {
        element: <AppShell />,
        children: [
          { index: true, element: <Navigate to={HOME_PATH} replace /> },
          { path: 'monitor', element: <MonitorLayout />, children: monitorChildren },
          { path: 'assets', element: <MonitorLayout />, children: monitorChildren },
          { path: 'settings', element: <SettingsPage /> },
          {
            path: 'tenant',
            element: <TenantLayout />,
            children: [
              { index: true, element: <Navigate to="home" replace /> },
              { path: 'home', element: <TenantHomePage /> },
              { path: 'users', element: <TenantUsersPage /> },
              { path: 'tokens', element: <TenantTokensPage /> },
              { path: 'audit-logs', element: <AuditLogsPage /> },
              { path: 'announcements', element: <AnnouncementsPage /> },
              { path: '*', element: <NotFoundPage /> },
            ],
          },
          // Users whose subscription lacks a search product get its promotion, not broken searches.
          {
            element: <ProductGate product="beacon" />,
            children: [
              { path: 'beacon', element: <BeaconHomePage /> },
              { path: 'beacon/results', element: <BeaconResultsPage /> },
              { path: 'beacon/author', element: <AuthorPage /> },
              { path: 'history', element: <HistoryPage /> },
            ],
          },
          {
            element: <ProductGate product="locate" />,
            children: [
              { path: 'locate', element: <LocatePage /> },
              { path: 'locate/quick-search', element: <LocateLinkPage /> },
              { path: 'locate/saved', element: <LocateSavedPage /> },
              // The search filters explorer and its two create modals (search-side.md section 2).
              { path: 'locate/search-filters', element: <SearchFiltersPage /> },
              { path: 'locate/search-filters/new', element: <SearchFiltersPage creating /> },
              { path: 'locate/saved/search-filters/new', element: <LocateSavedPage creatingFilter /> },
            ],
          },
          { path: 'cases', element: <CasesPage /> },
          { path: 'cases/:id', element: <CasePage /> },
          { path: 'exports', element: <ExportsPage /> },
          { path: 'sources', element: <SourcesPage /> },
          { path: 'compliance', element: <PortalPage area="compliance" /> },
          { path: 'rfi', element: <PortalPage area="rfi" /> },
          { path: 'cti', element: <PortalPage area="intel-reports" /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];
