/** 行为项配置: the house rules (禁止吸烟, 宠物友好, …) buildings show. */
import { buildingRule } from '@cowork/contract/resources/building-rule';
import { ResourcePage } from '../../components/resource/ResourcePage.tsx';

export default function RulePage() {
  return <ResourcePage resource={buildingRule} />;
}
