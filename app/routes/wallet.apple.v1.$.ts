// Apple's PassKit web service: one module for its five endpoints (app/wallet/apple-web-service-route.server.ts).
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import {
  walletServiceAction,
  walletServiceLoader,
} from '#app/wallet/apple-web-service-route.server'

export const loader = ({ request, context }: LoaderFunctionArgs) =>
  walletServiceLoader(request, context)

export const action = ({ request, context }: ActionFunctionArgs) =>
  walletServiceAction(request, context)
