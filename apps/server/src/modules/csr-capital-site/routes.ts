/** 定制场地 (csr-capital-site): a lead resource of the venue kind. */
import { csrCapitalSite } from '@cowork/contract/resources/csr-capital-site';
import { csrCapitalSites } from '../../db/schema.ts';
import { leadModule } from './lead.ts';

export default leadModule(csrCapitalSite, csrCapitalSites);
