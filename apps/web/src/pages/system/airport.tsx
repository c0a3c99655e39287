/** 机场三字码: the IATA codes of the airports whose lounges are sold. */
import { airportCode } from '@cowork/contract/resources/airport-code';
import { ResourcePage } from '../../components/resource/ResourcePage.tsx';

export default function AirportPage() {
  return <ResourcePage resource={airportCode} />;
}
