import WorkOutlined from '@mui/icons-material/WorkOutlined';
import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import ArticleOutlined from '@mui/icons-material/ArticleOutlined';
import LogoutOutlined from '@mui/icons-material/LogoutOutlined';
import ManageSearchOutlined from '@mui/icons-material/ManageSearchOutlined';
import QuestionAnswerOutlined from '@mui/icons-material/QuestionAnswerOutlined';
import RadarOutlined from '@mui/icons-material/RadarOutlined';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import TravelExploreOutlined from '@mui/icons-material/TravelExploreOutlined';
import VerifiedUserOutlined from '@mui/icons-material/VerifiedUserOutlined';
import type { SvgIconComponent } from '@mui/icons-material';
import type { AreaId } from '../lib/productAreas';

/** One icon per product area, shared by the left rail and the cross-product menu. */
export const areaIcons: Record<AreaId, SvgIconComponent> = {
  locate: TravelExploreOutlined,
  beacon: ManageSearchOutlined,
  monitor: RadarOutlined,
  cases: WorkOutlined,
  'intel-reports': ArticleOutlined,
  rfi: QuestionAnswerOutlined,
  compliance: VerifiedUserOutlined,
  tenant: AdminPanelSettingsOutlined,
  settings: SettingsOutlined,
  logout: LogoutOutlined,
};
