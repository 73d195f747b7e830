import { openMongoReadStore } from '../../services/readstore/mongo-read-store';
import { describeOnEngine } from '../support/engines';
import { readStoreContract } from './read-store.contract';

describeOnEngine('mongo', 'MongoDB read store', (url) => {
  readStoreContract('mongo', () => openMongoReadStore(url(), 'calendar_contract'));
});
