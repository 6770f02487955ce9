/**
 * Every sync collection's reader, in one list (contract/sync.ts names the collections and their
 * scopes). Each feature registers its own in `<feature>.collections.ts`; building this list
 * throws at the start when a collection is registered twice or one has no reader.
 */
import { accountCollections } from './account.collections.js';
import { chatCollections } from './chat.collections.js';
import { contentCollections } from './content.collections.js';
import { deliveryCollections } from './delivery.collections.js';
import { dividendCollections } from './dividend.collections.js';
import { exchangeCollections } from './exchange.collections.js';
import { feedbackCollections } from './feedback.collections.js';
import { hostingCollections } from './hosting/collections.js';
import { identityCollections } from './identity.collections.js';
import { incomeCollections } from './income.collections.js';
import { machineCollections } from './machine/collections.js';
import { otcCollections } from './otc.collections.js';
import { rechargeCollections } from './recharge.collections.js';
import { settingsCollections } from './settings.collections.js';
import { mergeCollections } from './sync-collection.js';
import { userCollections } from './user.collections.js';
import { withdrawCollections } from './withdraw.collections.js';

export const syncCollections = mergeCollections(
  contentCollections,
  settingsCollections,
  userCollections,
  feedbackCollections,
  identityCollections,
  accountCollections,
  rechargeCollections,
  withdrawCollections,
  exchangeCollections,
  deliveryCollections,
  dividendCollections,
  hostingCollections,
  incomeCollections,
  machineCollections,
  otcCollections,
  chatCollections,
);
