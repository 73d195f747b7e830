import { openKafkaBus } from '../../services/bus/kafka-bus';
import { describeOnEngine } from '../support/engines';
import { busContract } from './bus.contract';

describeOnEngine('kafka', 'Kafka bus', (brokers) => {
  busContract('kafka', () =>
    openKafkaBus(
      brokers()
        .split(',')
        .map((b) => b.trim())
        .filter(Boolean),
      { clientId: 'bus-contract' },
    ),
  );
});
