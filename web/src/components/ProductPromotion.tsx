import type { SvgIconComponent } from '@mui/icons-material';
import MailOutlineOutlined from '@mui/icons-material/MailOutlineOutlined';
import ManageSearchOutlined from '@mui/icons-material/ManageSearchOutlined';
import TravelExploreOutlined from '@mui/icons-material/TravelExploreOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Outlet } from 'react-router';
import { useProfile } from '../hooks/useProfileQuery';
import { type SearchProduct, subscribes } from '../lib/productAreas';
import { contactHref } from '../lib/support';
import { EmptyState } from './EmptyState';

const PRODUCTS: Record<SearchProduct, { name: string; icon: SvgIconComponent; summary: string; features: string[] }> = {
  locate: {
    name: 'Locate',
    icon: TravelExploreOutlined,
    summary: 'Locate finds posts by place, words or author, with the results on a map.',
    features: [
      'Search a city, region or country, or draw an area on the map: posts made there and posts that name a place in it.',
      'Keyword, author and compound searches over social media, forums, news and blogs.',
      'A word cloud and a daily graph of the results, and saved searches that keep running in Monitor.',
    ],
  },
  beacon: {
    name: 'Beacon',
    icon: ManageSearchOutlined,
    summary: 'Beacon searches by keyword where other tools do not reach.',
    features: [
      'The dark web, the deep web, forums, marketplaces and hacking boards, besides social media.',
      'Pastes, leaked documents and breach data.',
      'Flagged posts for export, and an author’s activity across every source.',
    ],
  },
};

/**
 * A search product's page for users whose subscription lacks it (search-side.md sections 2 and 6:
 * the Locate promotion page and the Beacon info page): what the product does and whom to ask,
 * in place of a search that the server would refuse.
 */
export function ProductPromotion({ product }: { product: SearchProduct }) {
  const profile = useProfile();
  const { name, icon, summary, features } = PRODUCTS[product];
  const email = profile.tenant.support_email;
  return (
    <Box sx={{ maxWidth: 880, mx: 'auto', px: { xs: 2, md: 4 }, py: { xs: 3, md: 6 } }}>
      <Typography variant="h2" component="h1" sx={{ mb: 2 }}>
        {name}
      </Typography>
      <EmptyState
        icon={icon}
        title={`${name} is not part of your subscription`}
        actions={
          <Button variant="contained" href={contactHref(email)} startIcon={<MailOutlineOutlined />}>
            Ask about {name}
          </Button>
        }
      >
        <Typography sx={{ mb: 1.5 }}>{summary}</Typography>
        <Box component="ul" sx={{ textAlign: 'left', m: 0, mb: 1.5, pl: 3 }}>
          {features.map((f) => (
            <li key={f}>{f}</li>
          ))}
        </Box>
        <Typography>
          {product === 'locate' ? 'Locate comes with the Pro and Enterprise subscriptions. ' : ''}
          To add it, ask your organization’s administrator
          {email ? (
            <>
              {' '}
              or write to <a href={`mailto:${email}`}>{email}</a>
            </>
          ) : null}
          .
        </Typography>
      </EmptyState>
    </Box>
  );
}

/** The product's pages (the routes below) for those who subscribe to it, its promotion for everyone else. */
export function ProductGate({ product }: { product: SearchProduct }) {
  const profile = useProfile();
  return subscribes(product, profile.acl) ? <Outlet /> : <ProductPromotion product={product} />;
}
