/**
 * 商户管理: merchants with their logo, contact and bank account. The server masks the account
 * number for staff who may only view merchants, so the table and form show what it answers.
 */
import { merchant } from '@cowork/contract/resources/merchant';
import { ResourcePage } from '../../components/resource/ResourcePage.tsx';

export default function MerchantPage() {
  return <ResourcePage resource={merchant} />;
}
