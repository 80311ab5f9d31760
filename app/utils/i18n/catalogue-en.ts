// The English catalogue: the spec's texts, exactly (they are the contract tests look for). The
// other languages' catalogues must have every key with the same placeholders
// (tests/unit/i18n-catalogues.test.ts). `{name}` is a placeholder; an object is a plural, one
// text per Intl.PluralRules category of the language.

import { PASSWORD_TOO_LONG_MESSAGE, PASSWORD_TOO_SHORT_MESSAGE } from '#app/validation/passwords'

export type PluralMessage = {
  one?: string
  two?: string
  few?: string
  many?: string
  other: string
}
export type Message = string | PluralMessage

export const en = {
  // The public card page (accounts-cards-sharing.md §2, §8).
  'card.title': 'Contact Card',
  'card.pageTitle': '{name} · Contact Card',
  'card.notFoundTitle': 'Contact Not Found',
  'card.notFoundHeading': 'Contact Card Not Found',
  'card.notFoundText': "Sorry, we couldn't find the contact card you're looking for.",
  'card.goHome': 'Go to Home',
  'card.forwardedTitle': 'Card No Longer in Use',
  'card.forwardedHeading': 'This card is no longer in use',
  'card.loadError': 'Error loading contact information',
  'card.saveContact': 'Save Contact',
  'card.connectWith': 'Connect with {firstName}',
  'card.connectedWith': 'Connected with {firstName}',
  'card.connectFailed': 'Failed to connect with {firstName}',
  'card.autoConnectFailed': 'Failed to complete automatic connection',
  'card.saveFailed': 'Failed to save contact',
  'card.exportedIos': 'Contact exported for iOS',
  'card.exportedMobile': 'Contact exported for mobile device',
  'card.exportedMac': 'Contact exported for macOS',
  'card.exportedWindows': 'Contact exported for Windows',
  'card.exportedFile': 'Contact file downloaded',
  'card.exportPrompt': 'Your device should prompt you to add the contact',
  'card.exportFailed': "Couldn't save contact to your device",
  'card.exportFailedSaved': 'The contact has been saved to your account only',
  'card.cardOf': "{name}'s card",
  'card.logo': 'Logo',
  'card.showQr': 'Show QR',
  'card.hideQr': 'Hide QR',
  'card.qrAlt': "QR code of {firstName}'s card",
  'card.qrHint': 'Let someone scan it to open this card on their phone.',
  'card.addTo': 'Add to',
  'card.language': 'Language',
  // The lead form (issue 41 point 7, ADR 050).
  'lead.heading': 'Share your details with {firstName}',
  'lead.noAccount': 'No account needed.',
  'lead.website': 'Website',
  'lead.yourName': 'Your name',
  'lead.yourEmail': 'Your email',
  'lead.yourPhone': 'Your phone',
  'lead.yourCompany': 'Your company',
  'lead.note': 'Note',
  'lead.send': 'Send my details',
  'lead.haveAccount': 'Have an account?',
  'lead.signInToConnect': 'Sign in to connect',
  'lead.failure': 'Failed to send your details. Please try again.',
  'lead.thanks': 'Thanks! {firstName} will be in touch.',
  'lead.keepTheirs': "Now keep {firstName}'s details too.",
  'lead.saveTheirContact': "Save {firstName}'s contact",
  'lead.book': 'Book a time with {firstName}',
  'lead.enterName': 'Please enter your name',
  'lead.enterEmail': 'Please enter a valid email address',
  'lead.consentRequired': 'Please tick the box to agree before sending your details',
  'lead.noteTooLong': 'Your note is too long',
  'lead.phoneTooLong': {
    one: 'Phone must be at most {count} character',
    other: 'Phone must be at most {count} characters',
  },
  'lead.companyTooLong': {
    one: 'Company must be at most {count} character',
    other: 'Company must be at most {count} characters',
  },
  // Keep me updated (ADR 102).
  'follow.heading': 'Keep me updated',
  'follow.text':
    "Get an email with {firstName}'s new contact card when their details change. At most one a day; every email has a link to stop.",
  'follow.email': 'Email for updates',
  'follow.failure': 'Failed to ask for updates. Please try again.',
  // Replies of the card's actions.
  'follow.asked':
    "Check your email: unless it already follows {firstName}'s card, we sent it a link to confirm.",
  'reply.saved': 'Contact saved successfully',
  'reply.duplicate': 'This contact is already in your list',
  'reply.connected': 'Successfully connected with {firstName}',
  'reply.connectFailed': 'Failed to connect with contact',
  // The frame a visitor's card page shares: skip link, footer, the visitor script's words.
  'frame.skip': 'Skip to content',
  'frame.getYourOwnCard': 'Get your own card',
  'frame.rights': '© {year} {name}. All rights reserved.',
  'frame.legalNav': 'Legal and support',
  'frame.pricing': 'Pricing',
  'frame.privacy': 'Privacy Policy',
  'frame.accessibility': 'Accessibility',
  'frame.terms': 'Terms of Service',
  'frame.support': 'Support:',
  'frame.notifications': 'Notifications',
  'frame.closeToast': 'Close toast',
  'frame.redirecting': 'Redirecting to login...',
  'frame.video': 'Video',
  // The receipt a visitor gets after leaving their details (ADR 050).
  'receipt.subject': 'Your details were shared with {ownerName}',
  'receipt.heading': 'Your details were shared',
  'receipt.hello': 'Hello,',
  'receipt.agreed':
    'You shared your details with {ownerName} on {date} and agreed to this (version {version}):',
  'receipt.seeOrDelete':
    'You can see what is stored about you, or delete it, at any time with the link below.',
  'receipt.quotedIntro': 'The name entered with these details, as it was typed:',
  'receipt.name': 'Name',
  'receipt.action': 'See or delete your data',
  'receipt.footnote':
    'You receive this email once, as a receipt of your consent. Keep it: the link is the way to your data.',
  // The emails of "Keep me updated" (ADR 102) and of a person who moved on (ADR 103).
  'followEmail.confirmSubject': 'Confirm updates from {ownerName}',
  'followEmail.hello': 'Hello,',
  'followEmail.confirmAsked':
    "Someone asked, on {ownerName}'s digital card, to send this address an email when {ownerName}'s contact details change.",
  'followEmail.confirmIgnore':
    'Confirm with the button below. If it was not you, ignore this email: nothing more will be sent.',
  'followEmail.confirmAction': 'Keep me updated',
  'followEmail.confirmFootnote': {
    one: 'The link works for {count} day. Every update carries a link to stop them.',
    other: 'The link works for {count} days. Every update carries a link to stop them.',
  },
  'followEmail.digestSubject': "{ownerName}'s contact details changed",
  'followEmail.digestUpdated':
    '{ownerName} updated their digital card. Their new contact card is attached: open it to update the contact on your device.',
  'followEmail.digestDetails': 'Their details now:',
  'followEmail.title': 'Title',
  'followEmail.company': 'Company',
  'followEmail.phone': 'Phone',
  'followEmail.email': 'Email',
  'followEmail.viewCard': 'View the card',
  'followEmail.digestFootnote':
    "You receive this email because you asked to be told when {ownerName}'s card changes. At most one a day.",
  'followEmail.stop': 'Stop these updates',
  'followEmail.movedSubject': '{ownerName} has moved',
  'followEmail.movedText':
    "{ownerName} has left {agency} and now has a personal card. The card you followed stays with {agency}: its link takes you to whoever looks after {ownerName}'s contacts there.",
  'followEmail.movedPersonal': "{ownerName}'s personal card: {url}",
  'followEmail.movedCompany': 'The {agency} card: {url}',
  'followEmail.movedViewPersonal': "View {ownerName}'s personal card",
  'followEmail.movedViewCompany': 'View the {agency} card',
  'followEmail.movedFootnote':
    "You receive this email once, because you asked to be told when {ownerName}'s card changes.",
  // The follow links' pages (ADR 102): the confirmation and the way out.
  'followPage.title': 'Keep me updated',
  'followPage.stopPageTitle': 'Stop updates',
  'followPage.confirmedTitle': 'You are following this card',
  'followPage.confirmedText':
    'You will get an email with the new contact card when its details change, at most one a day. Every email has a link to stop them.',
  'followPage.confirmedToast': 'You will be told when the card changes',
  'followPage.invalidTitle': 'Invalid link',
  'followPage.linkInvalid': {
    one: 'This link no longer works: it was used already, it is more than {count} day old, or it is not complete.',
    other:
      'This link no longer works: it was used already, it is more than {count} days old, or it is not complete.',
  },
  'followPage.askTitle': 'Keep me updated about {ownerName}',
  'followPage.askText':
    "Get an email with the new contact card when {ownerName}'s title, company, phone, email or photo changes.",
  'followPage.confirming': 'Confirming...',
  'followPage.confirm': 'Confirm',
  'followPage.stopTitle': 'Stop updates about this card',
  'followPage.stopText': "Stop the emails you get when this card's details change.",
  'followPage.unsubscribing': 'Unsubscribing...',
  'followPage.unsubscribe': 'Unsubscribe',
  'followPage.stoppedTitle': 'You are unsubscribed',
  'followPage.stoppedText': 'You will no longer get an email when this card changes.',
  'followPage.stoppedStatus': 'Updates stopped',
  'followPage.invalidStopTitle': 'Invalid unsubscribe link',
  'followPage.stopInvalid': 'This link is not valid. Open it again from the email.',
  'followPage.offTitle': 'Updates are off',
  'followPage.offText': 'You do not get emails when this card changes.',
  // The sign-in pages (spec §5; ADR 105): sign-in, forgot, reset and new password.
  'signIn.pageTitle': 'Sign in · {name}',
  'signIn.title': 'Sign in',
  'signIn.description': 'Welcome back. Sign in to manage and share your cards.',
  'signIn.signUpPrompt': "Don't have an account?",
  'signIn.signUp': 'Sign up',
  'signIn.email': 'Email',
  'signIn.password': 'Password',
  'signIn.forgotPassword': 'Forgot password',
  'signIn.signingIn': 'Signing in...',
  'signIn.submit': 'Sign In',
  'signIn.sso': 'Sign in with SSO',
  'signIn.failed': 'Failed to sign in. Please check your credentials.',
  'signIn.failure': 'Failed to sign in',
  'signIn.toCreateCard': 'You must be logged in to create a digital card',
  'signIn.toSaveContacts': 'You must be logged in to save contacts',
  'signIn.toConnect': 'Sign in to connect with {firstName}',
  'forgot.pageTitle': 'Forgot password',
  'forgot.title': 'Forgot your password?',
  'forgot.description': "Enter your email and we'll send you a link to reset it.",
  'forgot.back': 'Back to sign in',
  'forgot.sending': 'Sending...',
  'forgot.submit': 'Send Reset Link',
  'forgot.sent': 'Password reset link sent! Please check your email.',
  'forgot.adminsGetLink': 'Administrators of this agency get a reset link by email.',
  'forgot.failure': 'Failed to send reset link. Please try again.',
  'reset.pageTitle': 'Reset password',
  'reset.title': 'Reset your password',
  'reset.description': 'Choose a new password for your account.',
  'reset.resetting': 'Resetting...',
  'reset.submit': 'Reset Password',
  'reset.done': 'Password has been reset successfully! You can now log in with your new password.',
  'reset.failure': 'Failed to reset password. Please try again.',
  'reset.invalidTitle': 'Invalid Reset Link',
  'reset.invalidLink': 'This password reset link is invalid, has expired or has already been used.',
  'reset.requestNew': 'Request New Link',
  'newPassword.title': 'Choose a new password',
  'newPassword.description': {
    one: 'Your password is more than {count} day old. Choose a new one to continue.',
    other: 'Your password is more than {count} days old. Choose a new one to continue.',
  },
  'newPassword.saving': 'Saving...',
  'newPassword.submit': 'Save new password',
  'newPassword.updated': 'Password updated successfully',
  'newPassword.failure': 'Failed to update password',
  'newPassword.same': 'Your new password must be different from your current one',
  'newPassword.signOut': 'Sign out',
  'password.new': 'New password',
  'password.confirm': 'Confirm password',
  'password.mismatch': 'Passwords do not match',
  // The schemas' own (one home: app/validation/passwords.ts).
  'password.tooShort': PASSWORD_TOO_SHORT_MESSAGE,
  'password.tooLong': PASSWORD_TOO_LONG_MESSAGE,
} as const satisfies Record<string, Message>

export type MessageKey = keyof typeof en
export type Catalogue = {
  [K in MessageKey]: (typeof en)[K] extends string ? string : PluralMessage
}
