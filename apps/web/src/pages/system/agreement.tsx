/**
 * 隐私协议: versions of 隐私政策, 用户协议 and 服务协议. Publishing a version unpublishes the other
 * versions of its type (the server does it in one transaction), so the list is refreshed after a
 * publish; a published version must be unpublished before it can be removed.
 */
import { agreement } from '@cowork/contract/resources/agreement';
import { ResourcePage } from '../../components/resource/ResourcePage.tsx';

export default function AgreementPage() {
  return <ResourcePage resource={agreement} />;
}
