/** 定制场地: venue leads with their follow-up records. */
import { csrCapitalSite } from '@cowork/contract/resources/csr-capital-site';
import { LeadPage } from '../../components/lead/LeadPage.tsx';

export default function PlacePage() {
  return <LeadPage resource={csrCapitalSite} />;
}
