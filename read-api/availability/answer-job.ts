/** What an answer thread works out: one person's availability answer, or an answer about several people. */
import { schedulingAnswerOf, type PeopleInputs, type SchedulingRequest } from '../scheduling/answers';
import { answerOf, type AnswerRequest, type EngineInputs } from './answers';

export type AnswerJob =
  | { of: 'person'; req: AnswerRequest; inputs: EngineInputs }
  | { of: 'people'; req: SchedulingRequest; inputs: PeopleInputs };

export const answerOfJob = (job: AnswerJob): unknown =>
  (job.of === 'person' ? answerOf(job.req, job.inputs) : schedulingAnswerOf(job.req, job.inputs));
