/** Every HRIS provider's connector, by directory type. */
import { bamboohr } from './bamboohr.js';
import type { HrisConnector, HrisType } from './connector.js';
import { hibob } from './hibob.js';
import { personio } from './personio.js';

export const CONNECTORS: Record<HrisType, HrisConnector<any>> = { bamboohr, hibob, personio };

export function connectorFor(type: HrisType): HrisConnector<any> {
  return CONNECTORS[type];
}
