/** Every HRIS provider's connector, by directory type. */
import { bamboohr } from './bamboohr.js';
import type { HrisConnector, HrisType } from './connector.js';

export const CONNECTORS: Partial<Record<HrisType, HrisConnector<any>>> = { bamboohr };

export function connectorFor(type: string): HrisConnector<any> | undefined {
  return (CONNECTORS as Record<string, HrisConnector<any> | undefined>)[type];
}
