// A person's own card on the platform's host (ADR 103): the name and the personal email and phone
// they chose, as links a phone opens; nothing of an agency's.
import { Link, useLoaderData } from '@remix-run/react'
import type { personalCardLoader } from '#app/people/personal-card-route.server'
import {
  MANAGE_PERSONAL_CARD_LINK,
  personalCardManageRequestPath,
} from '#app/validation/personal-card'

export function PersonalCardPage() {
  const { card } = useLoaderData<typeof personalCardLoader>()
  const name = `${card.firstName} ${card.lastName}`.trim()
  const link =
    'block rounded-lg border border-gray-200 px-4 py-3 font-medium underline-offset-4 hover:underline dark:border-gray-700 break-all'
  return (
    <main className="mx-auto flex w-full max-w-md flex-col gap-6 px-4 py-12 md:py-20">
      <div className="rounded-2xl border border-gray-200 bg-white p-6 shadow-sm dark:border-gray-800 dark:bg-gray-900 md:p-8">
        <h1 className="text-2xl font-semibold">{name}</h1>
        <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">Personal card</p>
        <ul className="mt-6 flex flex-col gap-3">
          {card.email ? (
            <li>
              <a className={link} href={`mailto:${card.email}`}>
                <span className="sr-only">Email </span>
                {card.email}
              </a>
            </li>
          ) : null}
          {card.phone ? (
            <li>
              <a className={link} href={`tel:${card.phone.replace(/[^\d+]/g, '')}`}>
                <span className="sr-only">Call </span>
                {card.phone}
              </a>
            </li>
          ) : null}
        </ul>
      </div>
      <p className="text-center text-sm text-gray-600 dark:text-gray-400">
        <Link
          to={personalCardManageRequestPath(card.slug)}
          className="underline underline-offset-4"
        >
          {MANAGE_PERSONAL_CARD_LINK}
        </Link>
      </p>
    </main>
  )
}
