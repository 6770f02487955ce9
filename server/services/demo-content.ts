/**
 * What the first start adds on the embedded default so that a new user's Home is not empty: two
 * news in each of the seven languages, a notice in each, and four quotes. Marked `demo` (the
 * console shows the mark); operators edit or delete them like any other.
 */
import type { Locale } from '../../contract/locales.js';

interface DemoNews {
  title: string;
  summary: string;
  body: string;
}

export const DEMO_NEWS: Record<Locale, DemoNews[]> = {
  'zh-Hans': [
    {
      title: '欢迎使用 Coffer',
      summary: '这是演示新闻：运营人员可在控制台编辑或删除。',
      body: '欢迎！在这里您可以充值 USDT、托管赚取收益、兑换 RAB 并参与 OTC 交易。本条为演示内容，运营人员可在控制台中修改。',
    },
    {
      title: '安全提示：开启身份验证器',
      summary: '提现需要身份验证器验证码。',
      body: '请在“设置”中绑定身份验证器并设置交易密码。Coffer 的工作人员绝不会向您索要密码或验证码。',
    },
  ],
  'zh-Hant': [
    {
      title: '歡迎使用 Coffer',
      summary: '這是示範新聞：營運人員可在控制台編輯或刪除。',
      body: '歡迎！在這裡您可以儲值 USDT、託管賺取收益、兌換 RAB 並參與 OTC 交易。本則為示範內容，營運人員可在控制台中修改。',
    },
    {
      title: '安全提示：啟用身分驗證器',
      summary: '提領需要身分驗證器驗證碼。',
      body: '請在「設定」中綁定身分驗證器並設定交易密碼。Coffer 的工作人員絕不會向您索取密碼或驗證碼。',
    },
  ],
  en: [
    {
      title: 'Welcome to Coffer',
      summary: 'A demo news item: operators edit or delete it in the console.',
      body: 'Welcome! Here you deposit USDT, earn with hosting, exchange RAB and trade over the counter. This item is demo content that operators can change in the console.',
    },
    {
      title: 'Security tip: turn on the authenticator',
      summary: 'Withdrawals need a code from your authenticator.',
      body: 'Bind an authenticator and set a trade password in Settings. Coffer staff never ask for your passwords or codes.',
    },
  ],
  ja: [
    {
      title: 'Coffer へようこそ',
      summary: 'デモのお知らせです。運営者がコンソールで編集・削除できます。',
      body: 'ようこそ！USDT の入金、ホスティングでの運用、RAB の交換、OTC 取引ができます。これはデモ内容で、運営者がコンソールで変更できます。',
    },
    {
      title: 'セキュリティのヒント：認証アプリを有効に',
      summary: '出金には認証アプリのコードが必要です。',
      body: '設定で認証アプリを連携し、取引パスワードを設定してください。Coffer のスタッフがパスワードやコードを尋ねることはありません。',
    },
  ],
  ko: [
    {
      title: 'Coffer에 오신 것을 환영합니다',
      summary: '데모 뉴스입니다. 운영자가 콘솔에서 수정하거나 삭제할 수 있습니다.',
      body: '환영합니다! USDT 입금, 호스팅 수익, RAB 교환, OTC 거래를 이용할 수 있습니다. 이 글은 운영자가 콘솔에서 바꿀 수 있는 데모 콘텐츠입니다.',
    },
    {
      title: '보안 팁: 인증 앱을 켜세요',
      summary: '출금에는 인증 앱의 코드가 필요합니다.',
      body: '설정에서 인증 앱을 연결하고 거래 비밀번호를 설정하세요. Coffer 직원은 비밀번호나 코드를 절대 묻지 않습니다.',
    },
  ],
  th: [
    {
      title: 'ยินดีต้อนรับสู่ Coffer',
      summary: 'ข่าวตัวอย่าง: ผู้ดูแลแก้ไขหรือลบได้ในคอนโซล',
      body: 'ยินดีต้อนรับ! ที่นี่คุณฝาก USDT รับผลตอบแทนจากการฝากดูแล แลกเปลี่ยน RAB และซื้อขาย OTC ได้ ข่าวนี้เป็นเนื้อหาตัวอย่างที่ผู้ดูแลเปลี่ยนได้ในคอนโซล',
    },
    {
      title: 'เคล็ดลับความปลอดภัย: เปิดใช้แอปยืนยันตัวตน',
      summary: 'การถอนเงินต้องใช้รหัสจากแอปยืนยันตัวตน',
      body: 'ผูกแอปยืนยันตัวตนและตั้งรหัสผ่านการซื้อขายในหน้าตั้งค่า เจ้าหน้าที่ Coffer จะไม่ขอรหัสผ่านหรือรหัสยืนยันจากคุณ',
    },
  ],
  vi: [
    {
      title: 'Chào mừng đến với Coffer',
      summary: 'Tin mẫu: quản trị viên có thể sửa hoặc xóa trong bảng điều khiển.',
      body: 'Chào mừng! Tại đây bạn nạp USDT, sinh lời với lưu ký, đổi RAB và giao dịch OTC. Đây là nội dung mẫu mà quản trị viên có thể thay đổi trong bảng điều khiển.',
    },
    {
      title: 'Mẹo bảo mật: bật ứng dụng xác thực',
      summary: 'Rút tiền cần mã từ ứng dụng xác thực.',
      body: 'Hãy liên kết ứng dụng xác thực và đặt mật khẩu giao dịch trong Cài đặt. Nhân viên Coffer không bao giờ hỏi mật khẩu hay mã của bạn.',
    },
  ],
};

export const DEMO_NOTICES: Record<Locale, string> = {
  'zh-Hans': '演示公告：欢迎体验 Coffer，运营人员可在控制台修改本公告。',
  'zh-Hant': '示範公告：歡迎體驗 Coffer，營運人員可在控制台修改本公告。',
  en: 'Demo notice: welcome to Coffer. Operators change this notice in the console.',
  ja: 'デモのお知らせ：Coffer へようこそ。運営者がコンソールで変更できます。',
  ko: '데모 공지: Coffer에 오신 것을 환영합니다. 운영자가 콘솔에서 바꿀 수 있습니다.',
  th: 'ประกาศตัวอย่าง: ยินดีต้อนรับสู่ Coffer ผู้ดูแลเปลี่ยนประกาศนี้ได้ในคอนโซล',
  vi: 'Thông báo mẫu: chào mừng đến với Coffer. Quản trị viên đổi thông báo này trong bảng điều khiển.',
};

export const DEMO_QUOTES = [
  { symbol: 'BTC/USDT', name: 'Bitcoin', price: '64000' },
  { symbol: 'ETH/USDT', name: 'Ethereum', price: '3200' },
  { symbol: 'BNB/USDT', name: 'BNB', price: '580' },
  { symbol: 'TRX/USDT', name: 'TRON', price: '0.12' },
] as const;
