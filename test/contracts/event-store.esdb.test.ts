import { openEsdbEventStore } from '../../services/eventstore/esdb-event-store';
import { describeOnEngine } from '../support/engines';
import { eventStoreContract } from './event-store.contract';

describeOnEngine('eventstore', 'event store contract: EventStoreDB', (url) => {
  eventStoreContract('EventStoreDB', () => openEsdbEventStore(url()));
});
