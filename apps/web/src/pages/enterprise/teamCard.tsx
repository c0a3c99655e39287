/**
 * 企业会议卡: every company's meeting-card pools (components/enterprise/CompanyCards.tsx; a company's
 * 详情 shows its own).
 */
import { CompanyCards } from '../../components/enterprise/CompanyCards.tsx';

export default function CompanyCardPage() {
  return <CompanyCards />;
}
