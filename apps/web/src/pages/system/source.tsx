/** 来源配置: the channels members and leads come from. */
import { source } from '@cowork/contract/resources/source';
import { ResourcePage } from '../../components/resource/ResourcePage.tsx';

export default function SourcePage() {
  return <ResourcePage resource={source} />;
}
