/** 物业合作 (csr-capital-website): a lead resource of the property-cooperation kind. */
import { csrCapitalWebsite } from '@cowork/contract/resources/csr-capital-website';
import { csrCapitalWebsites } from '../../db/schema.ts';
import { leadModule } from '../csr-capital-site/lead.ts';

export default leadModule(csrCapitalWebsite, csrCapitalWebsites);
