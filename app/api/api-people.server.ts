// Users and teams through the REST API (ADR 092). An invited user is an end user who chooses a
// password from the emailed link, as when an admin adds one; deactivation ends the sessions and,
// with a successor, hands the seat over (app/people/seat-handover.server.ts): the links forward to
// the successor's card and the company contacts move, in the same transaction.
import { randomBytes } from 'node:crypto'
import { queueSetPasswordEmailIn } from '#app/auth/created-account.server'
import { hashPassword } from '#app/auth/password.server'
import { lockActiveAgencyAdmins, updateAccount } from '#app/models/people.server'
import { deleteUserSessions } from '#app/models/sessions.server'
import {
  findOrganizationTeam,
  listOrganizationTeamsPage,
  listTeamMembers,
} from '#app/models/teams.server'
import {
  createUser,
  findUserByEmail,
  findUserById,
  listOrganizationUsers,
  type User,
} from '#app/models/users.server'
import { handOverSeat } from '#app/people/seat-handover.server'
import { isRefusal } from '#app/utils/action-error'
import {
  PageQuery,
  TeamDetailSchema,
  TeamIdParams,
  TeamListQuery,
  TeamPageSchema,
  UserDeactivateSchema,
  UserIdParams,
  UserInviteSchema,
  UserPageSchema,
  UserSchema,
} from '#app/validation/api'
import { answerPage, auditApiWrite, iso, notFound, route, timestamps } from './api-call.server'
import { ApiProblem } from './problem'

export function toApiUser(
  user: Pick<
    User,
    'id' | 'email' | 'firstName' | 'lastName' | 'role' | 'status' | 'createdAt' | 'updatedAt'
  >,
) {
  return {
    id: user.id,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    role: user.role,
    status: user.status,
    ...timestamps(user),
  }
}

export const PEOPLE_ROUTES = [
  route({
    method: 'GET',
    path: '/users',
    operationId: 'listUsers',
    summary: "List the agency's users, oldest change first",
    tag: 'Users',
    scope: 'users:read',
    query: PageQuery,
    success: { status: 200, description: 'A page of users', schema: UserPageSchema },
    handle: (call, { query }) =>
      answerPage(
        query,
        (page) => listOrganizationUsers(call.tx, call.tenant.id, page),
        (user) => toApiUser(user),
      ),
  }),
  route({
    method: 'POST',
    path: '/users',
    operationId: 'inviteUser',
    summary: 'Invite an end user: they are emailed a link to choose a password',
    tag: 'Users',
    scope: 'users:write',
    body: UserInviteSchema,
    create: true,
    success: { status: 201, description: 'The user invited', schema: UserSchema },
    // No plan seat is asked for, as the agency's Add User without a team member asks none: an
    // agency's seats are its staff's and a team member's assigned end users' (ADR 051,
    // app/billing/plan-limits.server.ts), and an invited end user is neither. An invite that ever
    // makes staff or assigns a team member asks assertStaffSeat or assertEndUserSeat first.
    handle: async (call, { body }) => {
      if (await findUserByEmail(call.tx, call.tenant.id, body.email)) {
        throw new ApiProblem(409, 'An account with this email already exists in this agency')
      }
      const user = await createUser(call.tx, call.tenant.id, {
        email: body.email,
        // Nobody knows this password: the person chooses one from the emailed link.
        passwordHash: await hashPassword(randomBytes(32).toString('base64url')),
        role: 'end_user',
        firstName: body.first_name,
        lastName: body.last_name,
        emailConfirmedAt: null,
      })
      await queueSetPasswordEmailIn(call.tx, call.tenant, user, {
        name: call.tenant.name,
        // Counted against the key as a sender (app/email/send-limits.server.ts).
        userId: call.key.id,
      })
      await auditApiWrite(call, 'user.created', 'user', user.id, { role: 'end_user' })
      return { status: 201, body: toApiUser(user) }
    },
  }),
  route({
    method: 'POST',
    path: '/users/{userId}/deactivate',
    operationId: 'deactivateUser',
    summary: 'Deactivate a user, optionally handing their seat to a successor',
    tag: 'Users',
    scope: 'users:write',
    params: UserIdParams,
    body: UserDeactivateSchema,
    success: { status: 200, description: 'The user after the change', schema: UserSchema },
    handle: async (call, { params, body }) => {
      const user = await findUserById(call.tx, call.tenant.id, params.userId)
      if (!user) throw notFound('user')
      if (user.role === 'agency_admin' && user.status === 'active') {
        const admins = await lockActiveAgencyAdmins(call.tx, call.tenant.id)
        if (admins.length <= 1) {
          throw new ApiProblem(409, 'An agency must keep at least one active agency admin')
        }
      }
      await updateAccount(call.tx, call.tenant.id, user.id, { status: 'inactive' })
      await deleteUserSessions(call.tx, call.tenant.id, user.id)
      let contactsMoved: number | undefined
      if (body.successor_id) {
        try {
          const handed = await handOverSeat(call.tx, {
            organizationId: call.tenant.id,
            userId: user.id,
            successorId: body.successor_id,
            actorUserId: null,
          })
          contactsMoved = handed.contactsMoved
        } catch (error) {
          if (!isRefusal(error)) throw error
          throw new ApiProblem(422, error.message, {
            errors: [{ pointer: '/successor_id', detail: error.message }],
          })
        }
      }
      if (user.status === 'active') {
        await auditApiWrite(call, 'user.deactivated', 'user', user.id, {
          ...(body.successor_id ? { successorId: body.successor_id, contactsMoved } : {}),
        })
      }
      const after = await findUserById(call.tx, call.tenant.id, user.id)
      return { status: 200, body: toApiUser(after ?? user) }
    },
  }),
  route({
    method: 'GET',
    path: '/teams',
    operationId: 'listTeams',
    summary: "List the agency's teams with how many people each has, oldest first",
    tag: 'Teams',
    scope: 'teams:read',
    query: TeamListQuery,
    success: { status: 200, description: 'A page of teams', schema: TeamPageSchema },
    handle: (call, { query }) =>
      answerPage(
        query,
        (page) => listOrganizationTeamsPage(call.tx, call.tenant.id, page),
        (team) => ({
          id: team.id,
          name: team.name,
          members: team.members,
          created_at: iso(team.createdAt) ?? '',
        }),
      ),
  }),
  route({
    method: 'GET',
    path: '/teams/{teamId}',
    operationId: 'getTeam',
    summary: 'Read a team and its members',
    tag: 'Teams',
    scope: 'teams:read',
    params: TeamIdParams,
    success: { status: 200, description: 'The team', schema: TeamDetailSchema },
    handle: async (call, { params }) => {
      const team = await findOrganizationTeam(call.tx, call.tenant.id, params.teamId)
      if (!team) throw notFound('team')
      const members = await listTeamMembers(call.tx, call.tenant.id, team.id)
      return {
        status: 200,
        body: {
          id: team.id,
          name: team.name,
          description: team.description,
          created_at: iso(team.createdAt) ?? '',
          members: members.map((m) => ({ user_id: m.userId, role: m.role, email: m.email })),
        },
      }
    },
  }),
]
