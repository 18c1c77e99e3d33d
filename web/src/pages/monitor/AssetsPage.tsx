import AddOutlined from '@mui/icons-material/AddOutlined';
import ShieldOutlined from '@mui/icons-material/ShieldOutlined';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { ASSET_TYPES, type Asset, type AssetType } from '../../api/assets';
import { AssetDialog } from '../../components/assets/AssetDialog';
import { EmptyState } from '../../components/EmptyState';
import { LoadError } from '../../components/LoadError';
import { PageHeader } from '../../components/PageHeader';
import { RelativeTime } from '../../components/RelativeTime';
import { useAssetsQuery, useDeleteAsset } from '../../hooks/useAssetQueries';
import { ASSET_TYPE_TEXT } from '../../lib/assetTypes';
import { countOf } from '../../lib/countFormat';
import { ActionsHeaderCell } from '../../components/table/ActionsHeaderCell';
import { EditDeleteButtons } from '../../components/table/EditDeleteButtons';
import { useConfirmDelete } from '../../hooks/useConfirmDelete';

/** assets: the values the organization watches (IP addresses, domains, IIN/BINs…), by type. */
export function AssetsPage() {
  const assets = useAssetsQuery();
  const [type, setType] = useState<AssetType | ''>('');
  const [editor, setEditor] = useState<{ editing: Asset | null } | null>(null);
  const add = () => setEditor({ editing: null });
  const shown = (assets.data ?? []).filter((a) => type === '' || a.type === type);

  return (
    <>
      <PageHeader
        title="Assets"
        subtitle="What your organization watches: its domains, IP addresses, card ranges, people and places. Assets count toward your plan’s asset limit."
        actions={
          assets.data && assets.data.length > 0 ? (
            <Button variant="contained" startIcon={<AddOutlined />} onClick={add} sx={{ whiteSpace: 'nowrap' }}>
              Add an asset
            </Button>
          ) : undefined
        }
      />
      {assets.isPending ? (
        <Stack spacing={1} role="progressbar" aria-label="Loading assets">
          <Skeleton variant="rounded" height={40} />
          <Skeleton variant="rounded" height={40} />
        </Stack>
      ) : assets.isError ? (
        <LoadError onRetry={() => void assets.refetch()}>{assets.error.message}</LoadError>
      ) : assets.data.length === 0 ? (
        <EmptyState
          icon={ShieldOutlined}
          title="No assets yet"
          actions={
            <Button variant="contained" startIcon={<AddOutlined />} onClick={add}>
              Add the first asset
            </Button>
          }
        >
          Add what your organization owns or watches, such as its domains, IP addresses or the first digits of its
          cards, so everyone in it works from the same list.
        </EmptyState>
      ) : (
        <>
          <Stack direction="row" sx={{ mb: 2, alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
            <TextField
              select
              size="small"
              label="Type"
              value={type}
              onChange={(event) => setType(event.target.value as AssetType | '')}
              slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
              sx={{ width: 220 }}
            >
              <MenuItem value="">All types</MenuItem>
              {ASSET_TYPES.map((t) => (
                <MenuItem key={t} value={t}>
                  {ASSET_TYPE_TEXT[t].label}
                </MenuItem>
              ))}
            </TextField>
            <Typography variant="body2" color="text.secondary" role="status">
              {countOf(shown.length, 'asset', 'assets')}
            </Typography>
          </Stack>
          {shown.length === 0 ? (
            <Typography color="text.secondary" sx={{ py: 4, textAlign: 'center' }}>
              No asset of this type yet.
            </Typography>
          ) : (
            <AssetTable items={shown} onEdit={(editing) => setEditor({ editing })} />
          )}
        </>
      )}
      <AssetDialog open={editor !== null} editing={editor?.editing ?? null} onClose={() => setEditor(null)} />
    </>
  );
}

function AssetTable({ items, onEdit }: { items: Asset[]; onEdit: (asset: Asset) => void }) {
  const askToDelete = useConfirmDelete(
    useDeleteAsset(),
    'It leaves your organization’s assets for everyone. This cannot be undone.',
  );

  return (
    <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 2 }}>
      <Table aria-label="Assets">
        <TableHead>
          <TableRow>
            <TableCell>Type</TableCell>
            <TableCell>Value</TableCell>
            <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>Added by</TableCell>
            <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>Updated</TableCell>
            <ActionsHeaderCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {items.map((a) => (
            <TableRow key={a.id}>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{ASSET_TYPE_TEXT[a.type].label}</TableCell>
              <TableCell sx={{ fontWeight: 600, wordBreak: 'break-all' }}>{a.value}</TableCell>
              <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{a.ownerEmail}</TableCell>
              <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>
                <RelativeTime date={new Date(a.updatedAt * 1000)} />
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                {a.canEdit && (
                  <EditDeleteButtons
                    name={a.value}
                    onEdit={() => onEdit(a)}
                    onDelete={() => askToDelete(a.id, a.value)}
                  />
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
