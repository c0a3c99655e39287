/** 物业合作: property-cooperation leads with their follow-up records. */
import { csrCapitalWebsite } from '@cowork/contract/resources/csr-capital-website';
import { LeadPage } from '../../components/lead/LeadPage.tsx';

export default function CooperatePage() {
  return <LeadPage resource={csrCapitalWebsite} />;
}
